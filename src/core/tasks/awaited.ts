import type { PendingApproval } from '../permissions/pending.js';
import { RAN_SCOPE_PREFIX } from '../runtime/follow-up.js';

/**
 * How long a call approved and taken to run by another process is waited for: the longest a
 * command may run (the shell tools' cap, 10 minutes) and a margin. Past it that process is taken
 * to have ended without recording the result (a window closed mid-run), and the task goes on.
 */
export const IN_FLIGHT_LIMIT_MS = 15 * 60_000;

/**
 * The parked calls of a task's session that it still waits for (issue 28), given every approval
 * of the store, resolved ones included:
 *
 * - pending ones (nobody decided yet);
 * - approved ones that the approving process (VS Code's queue, `pepe approvals approve`) took to
 *   run itself (spec 5.4: approve-and-run) and whose result is not yet in the session's state. The
 *   next turn tells the agent that result; taking it before the run ended would tell it nothing and
 *   end the task while its command still runs.
 *
 * An approved call nobody took runs in the task's next turn; a denied or expired one is told there.
 */
export function awaitedCalls(approvals: readonly PendingApproval[], sessionId: string, sessionState: () => Record<string, unknown>, now: Date = new Date()): string[] {
  const mine = approvals.filter((a) => a.sessionId === sessionId);
  let state: Record<string, unknown> | undefined;
  const told = (id: string) => Object.hasOwn((state ??= sessionState()), `${RAN_SCOPE_PREFIX}${id}`);
  return mine
    .filter((a) => {
      if (a.status === 'pending') return true;
      if (a.status !== 'approved' || !a.deliveredAt) return false;
      const since = Date.parse(a.deliveredAt);
      // A time that cannot be read counts as past the limit: waited on, it would never end.
      if (!Number.isFinite(since) || now.getTime() - since > IN_FLIGHT_LIMIT_MS) return false;
      return !told(a.id);
    })
    .map((a) => a.id);
}
