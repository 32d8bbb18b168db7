// A harness that hands the whole turn to an external command: the last message is the prompt,
// the command's output is the whole answer. Pinning a harness gives it the entire turn (no
// permission barrier, loop guard or compaction unless it calls them), so only install one you trust.
// The command defaults to `my-agent-cli`; set EXTERNAL_AGENT_CLI to use another program.
import { spawnSync } from 'node:child_process';

export function name() {
  return 'external_cli_harness';
}

export function slot() {
  return 'harness';
}

export async function run(_agent, messages, opts = {}) {
  const last = messages[messages.length - 1];
  const prompt = last && typeof last.content === 'string' ? last.content : '';
  const program = process.env.EXTERNAL_AGENT_CLI || 'my-agent-cli';
  const result = spawnSync(program, ['--prompt', prompt], { encoding: 'utf8' });
  if (result.error) throw new Error(`external CLI failed: ${result.error.message}`);
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) throw new Error(`external CLI failed (exit ${result.status}): ${output.trim()}`);
  const content = output.trim();
  // Emitting the answer as a delta is what lets live surfaces (CLI, chat panel) stream it.
  if (typeof opts.onEvent === 'function') opts.onEvent({ type: 'assistant_delta', text: content });
  return { content, messages: [...messages, { role: 'assistant', content }] };
}
