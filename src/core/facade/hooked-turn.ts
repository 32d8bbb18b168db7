import { UsageError } from '../errors.js';
import type { RunTurnOptions, TurnResult } from '../events.js';
import type { HookRunner } from '../runtime/hook-runner.js';

/** A person's turn with the prompt and session hooks around it (they can block the prompt or add context, never allow anything). */
export async function runWithHooks(hooks: Pick<HookRunner, 'promptEvent' | 'notify'>, runTurn: (opts: RunTurnOptions) => Promise<TurnResult>, opts: RunTurnOptions): Promise<TurnResult> {
  const common = { agent: opts.agent, session_id: opts.sessionId ?? null };
  const context: string[] = [];
  if (!opts.sessionId) context.push(...(await hooks.promptEvent('SessionStart', { ...common, source: 'startup' }, opts.signal)).context);
  const prompt = await hooks.promptEvent('UserPromptSubmit', { ...common, prompt: opts.text }, opts.signal);
  if (prompt.blocked) throw new UsageError(`the prompt was blocked by a hook: ${prompt.blocked}`);
  context.push(...prompt.context);
  const text = context.length ? `${opts.text}\n\n[hook context]\n${context.join('\n')}` : opts.text;
  const result = await runTurn({ ...opts, text });
  await hooks.notify('Stop', { agent: opts.agent, session_id: result.sessionId, status: result.status });
  return result;
}
