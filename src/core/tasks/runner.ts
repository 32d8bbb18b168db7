import type { RunTurnOptions, TurnResult } from '../events.js';
import { errorMessage } from '../errors.js';
import type { TaskStore, TaskRecord } from './record.js';

/** At most this many turns per task: the first, then one after each batch of decided approvals. */
export const MAX_TASK_TURNS = 8;
const FOLLOW_UP = 'The person decided on the calls you were waiting for (their outcome is above). Carry on with the task, then say briefly what you changed.';

export interface TaskRunDeps {
  store: TaskStore;
  /** One turn of the task's agent, in the task's worktree, with nobody present to ask (parking). */
  turn: (opts: Pick<RunTurnOptions, 'agent' | 'text' | 'sessionId' | 'signal' | 'onEvent'>) => Promise<TurnResult>;
  /** Ids of the approvals of `sessionId` it still waits for: pending, or approved and still running where they were approved (awaitedCalls). */
  pendingOf: (sessionId: string) => Promise<string[]>;
  signal: AbortSignal;
  pollMs?: number;
  maxTurns?: number;
  now?: () => Date;
}

/**
 * Runs a task to its end (issue 28), in the process that was started for it: a turn with nobody
 * to ask (gated calls park in the approvals queue, naming the task's worktree as their
 * workspace), then, while calls wait for the person, `waiting`; once they are decided, another
 * turn in the same session, where the agent is told how they went. Progress goes into the
 * record after every step. A stop (the signal) ends the turn through the runtime's own
 * cancellation, so the transcript stays whole; the worktree is left for review.
 */
export async function runTask(id: string, deps: TaskRunDeps): Promise<TaskRecord> {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  const { store, signal } = deps;
  const maxTurns = deps.maxTurns ?? MAX_TASK_TURNS;
  let task = store.update(id, () => ({ status: 'running', pid: process.pid, startedAt: now() }));
  const stopped = () => signal.aborted || store.read(id)?.stopRequested === true;
  try {
    let text = task.text;
    for (;;) {
      if (stopped()) return finish('stopped');
      const result = await deps.turn({ agent: task.agent, text, sessionId: task.sessionId, signal, onEvent: (e) => {
        if (e.type === 'turn_start' && e.path.length === 1 && !task.sessionId) task = store.update(id, () => ({ sessionId: e.sessionId }));
      } });
      task = store.update(id, (r) => ({ sessionId: result.sessionId, turns: r.turns + 1, lastTurn: result.status, summary: result.content.slice(0, 2000) }));
      if (result.status === 'cancelled' || stopped()) return finish('stopped');
      if (result.status === 'error') return finish('failed', result.error ?? 'the turn failed');
      const waiting = await deps.pendingOf(result.sessionId);
      if (!waiting.length) return finish(result.status === 'ok' ? 'done' : 'failed', result.status === 'ok' ? undefined : `the turn ended with ${result.status}${result.error ? `: ${result.error}` : ''}`);
      if (task.turns >= maxTurns) return finish('failed', `${waiting.length} calls wait for approval, and the task took its ${maxTurns} turns`);
      task = store.update(id, () => ({ status: 'waiting', waitingFor: waiting }));
      while (!stopped()) {
        const still = (await deps.pendingOf(result.sessionId)).filter((w) => waiting.includes(w));
        if (!still.length) break;
        if (still.length !== (store.read(id)?.waitingFor ?? []).length) task = store.update(id, () => ({ waitingFor: still }));
        await sleep(deps.pollMs ?? 1000, signal);
      }
      if (stopped()) return finish('stopped');
      task = store.update(id, () => ({ status: 'running', waitingFor: undefined }));
      text = FOLLOW_UP;
    }
  } catch (e) {
    return finish(stopped() ? 'stopped' : 'failed', errorMessage(e));
  }

  function finish(status: TaskRecord['status'], error?: string): TaskRecord {
    return store.update(id, () => ({ status, pid: undefined, waitingFor: undefined, endedAt: now(), ...(error !== undefined ? { error } : {}) }));
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
