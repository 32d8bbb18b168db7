import type { Checkpoint, Checkpoints } from './checkpoints.js';

/** How much of the message that started a turn a checkpoint keeps as its name. */
const MESSAGE_CHARS = 80;

/** The first line of the message that started a turn, cut to a name's length ("Fix the rounding in prices.py"). */
export function checkpointMessage(text: string): string | undefined {
  const line = text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim()).find(Boolean);
  if (!line) return undefined;
  // Control and bidi characters would make a name that reads differently than it is.
  const clean = line.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '');
  return clean.length > MESSAGE_CHARS ? `${clean.slice(0, MESSAGE_CHARS - 1)}…` : clean || undefined;
}

/**
 * A checkpoint as a person recognises it (issue 26): a turn's by the message that started it
 * ("before “Fix the rounding”"), else by what took it; the hash only as a last resort.
 */
export function checkpointLabel(c: Checkpoint): string {
  if (c.reason === 'restore') return `before restoring ${c.restoring?.slice(0, 8) ?? 'a checkpoint'}`;
  if (c.reason === 'manual') return 'saved by hand';
  if (c.message) return `before “${c.message}”`;
  return `before a turn of ${c.agent ?? 'an agent'}`;
}

/** Who and when: "coder · 2026-12-02 00:31:05". */
export function checkpointDetail(c: Checkpoint): string {
  const when = c.createdAt.replace('T', ' ').slice(0, 19);
  return [c.agent, when].filter(Boolean).join(' · ');
}

/**
 * Checkpoints worth offering (newest first): a turn's only when that turn changed files. A turn's
 * checkpoint is taken before its first call that may change files; whether anything changed is
 * seen by comparing it with what came next (the next checkpoint, or the work tree now for the
 * newest). A restore's or a manual one is always kept.
 */
export async function checkpointsThatChanged(cp: Pick<Checkpoints, 'changes'>, list: readonly Checkpoint[]): Promise<Checkpoint[]> {
  const out: Checkpoint[] = [];
  for (const [i, c] of list.entries()) {
    if (c.reason !== 'turn') {
      out.push(c);
      continue;
    }
    const newer = i > 0 ? list[i - 1] : undefined;
    const changed = newer ? newer.tree !== c.tree : (await cp.changes(c.id)).length > 0;
    if (changed) out.push(c);
  }
  return out;
}
