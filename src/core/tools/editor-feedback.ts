/**
 * The editor's own feedback after a file tool wrote (issue 25): a host that runs language tooling
 * (VS Code) reports the errors and warnings that appeared for the file, so the agent can fix what
 * it broke. A port: the core stays free of any editor API; the CLI sets none and nothing is added.
 */
export interface EditorFeedback {
  /**
   * Called right before the write, with the checked real path: takes the problems reported now
   * (the baseline) and starts listening. `settle` is called once the write is done and resolves
   * with a sentence naming the new problems, or null when there are none (or none came in time).
   */
  watch(realPath: string): FeedbackWatch;
}

export interface FeedbackWatch {
  settle(signal?: AbortSignal): Promise<string | null>;
  /** Stops listening without waiting (the write failed). */
  dispose(): void;
}

export interface Problem {
  severity: 'error' | 'warning';
  message: string;
  line: number;
  column: number;
  source?: string;
  code?: string;
}

const MAX_LISTED = 10;
const MAX_MESSAGE = 300;

/** What makes two problems "the same" across an edit: not the position, which moves with the text. */
const problemKey = (p: Problem) => `${p.severity}\0${p.source ?? ''}\0${p.code ?? ''}\0${p.message}`;

/** Problems in `after` that were not in `before`, counted as a multiset (a second copy of the same error is new). */
export function newProblems(before: readonly Problem[], after: readonly Problem[]): Problem[] {
  const left = new Map<string, number>();
  for (const p of before) left.set(problemKey(p), (left.get(problemKey(p)) ?? 0) + 1);
  const out: Problem[] = [];
  for (const p of after) {
    const k = problemKey(p);
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else out.push(p);
  }
  return out.sort((a, b) => (a.severity === b.severity ? a.line - b.line || a.column - b.column : a.severity === 'error' ? -1 : 1));
}

const plural = (n: number, word: string) => `${n} new ${word}${n === 1 ? '' : 's'}`;
const oneLine = (s: string) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE)}…` : flat;
};

/** "The editor reports 2 new errors in a.ts: …", one line per problem, at most ten; null when none. */
export function describeNewProblems(file: string, problems: readonly Problem[]): string | null {
  if (!problems.length) return null;
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  const counts = [errors ? plural(errors, 'error') : null, warnings ? plural(warnings, 'warning') : null].filter(Boolean).join(' and ');
  const lines = problems.slice(0, MAX_LISTED).map((p) => {
    const origin = [p.source, p.code].filter(Boolean).join(' ');
    return `- ${file}:${p.line}:${p.column} ${p.severity}: ${oneLine(p.message)}${origin ? ` (${oneLine(origin)})` : ''}`;
  });
  if (problems.length > MAX_LISTED) lines.push(`- … and ${problems.length - MAX_LISTED} more`);
  return `The editor reports ${counts} in ${file} after this change:\n${lines.join('\n')}`;
}

/**
 * Runs a file tool's write between `watch` and `settle`, and appends what the editor reported to
 * its result. Feedback never fails the call: a port that throws adds nothing; a failed write gets
 * nothing added.
 */
export async function withEditorFeedback<R extends { content: string; isError?: boolean }>(
  feedback: EditorFeedback | undefined,
  target: { requested: string; real: string | undefined },
  signal: AbortSignal | undefined,
  write: () => Promise<R>,
): Promise<R> {
  if (!feedback || !target.real) return write();
  let watch: FeedbackWatch;
  try {
    watch = feedback.watch(target.real);
  } catch {
    return write();
  }
  let result: R;
  try {
    result = await write();
  } catch (e) {
    watch.dispose();
    throw e;
  }
  if (result.isError) {
    watch.dispose();
    return result;
  }
  try {
    const note = await watch.settle(signal);
    return note ? { ...result, content: `${result.content}\n\n${note}` } : result;
  } catch {
    return result;
  } finally {
    watch.dispose();
  }
}
