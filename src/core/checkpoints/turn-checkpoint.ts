import type { EventSink } from '../events.js';
import { Checkpoints } from './checkpoints.js';
import { checkpointMessage } from './checkpoint-label.js';
import { checkpointConfinement } from './shadow-git.js';
import { skippedText } from './skipped.js';

export interface TurnCheckpointOptions {
  pepeHome: string;
  workspace: string;
  agent: string;
  sessionId: string;
  turnId: string;
  /** The message that started the turn: the checkpoint is named by its first line. */
  message?: string;
  chain: string[];
  emit: EventSink;
  env: NodeJS.ProcessEnv;
}

/**
 * The checkpoint "before this turn" (issue 17), taken lazily: the tool invoker calls the returned
 * function right before the turn's first call that may change files runs (after its approval),
 * so a turn that only talks or reads costs nothing. Once per turn; later calls wait for the same
 * snapshot. A checkpoint that cannot be taken (no git) does not stop the edit: the person is told
 * that this turn has no checkpoint. PEPE_CHECKPOINTS=off turns them off. Nested repositories left
 * out of the checkpoint are said too (their files cannot be restored from it).
 */
export function turnCheckpointer(options: TurnCheckpointOptions): () => Promise<void> {
  let taken: Promise<void> | undefined;
  return () => {
    if (options.env.PEPE_CHECKPOINTS === 'off') return Promise.resolve();
    taken ??= (async () => {
      try {
        const cp = await Checkpoints.open(options.pepeHome, options.workspace, { confinement: checkpointConfinement(options.env) });
        const message = options.message === undefined ? undefined : checkpointMessage(options.message);
        const made = await cp.create({ reason: 'turn', agent: options.agent, sessionId: options.sessionId, turnId: options.turnId, ...(message ? { message } : {}) });
        if (made.skipped?.length) {
          options.emit({ type: 'error', path: options.chain, recoverable: true, message: `the checkpoint before this turn ${skippedText(made.skipped)}; their files are not in it` });
        }
      } catch (e) {
        options.emit({ type: 'error', path: options.chain, recoverable: true, message: `no checkpoint was taken before this turn's changes: ${(e as Error).message}` });
      }
    })();
    return taken;
  };
}

/** The checkpoint taken before a turn of a session, if any (newest first: a turn has at most one). */
export async function checkpointBeforeTurn(pepeHome: string, workspace: string, sessionId: string, turnId: string): Promise<string | null> {
  const cp = await Checkpoints.open(pepeHome, workspace);
  const hit = (await cp.list(1000)).find((c) => c.reason === 'turn' && c.sessionId === sessionId && c.turnId === turnId);
  return hit?.id ?? null;
}
