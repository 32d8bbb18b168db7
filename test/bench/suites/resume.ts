/**
 * Resuming a long conversation (issue 27): `pepe run a hello --session ID` on a session file of
 * 50,000 messages (25,000 questions and answers, about 11 MB), on the mock model, as whole
 * processes timed by their own CPU time, interleaved with a one-turn `pepe run` on a fresh session
 * and a bare `node -e 0`. Target: the resume and its answer in under 1 s of CPU.
 *
 * The file is written as plain message lines, then resumed once before measuring: that first
 * resume finds the conversation over the context window and compacts it (a compaction line is
 * appended; the messages stay in the file), as a conversation that grew turn by turn would have
 * been along the way. It is its own row (one sample). Every measured resume then reads all 50,000
 * messages and the compaction line; each appends its two messages, so the file grows by two lines
 * a sample.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOnce } from '../build.js';
import { cpuTimedNode } from '../cpu-time.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedDiff, pairedRatio } from '../stats.js';
import { ROOT } from './extension.js';

export const MESSAGES = 50_000;
const SESSION = '20261201-be7c4a11';

function writeSession(file: string): void {
  const ts = '2026-12-01T00:00:00.000Z';
  const lines = [JSON.stringify({ type: 'session', id: SESSION, agent: 'a', createdAt: ts, origin: 'user', title: 'a long conversation' })];
  for (let i = 0; i < MESSAGES / 2; i++) {
    const turnId = `t${i.toString(16).padStart(7, '0')}`;
    lines.push(JSON.stringify({ type: 'message', ts, message: { role: 'user', content: `question ${i}: ${'lorem ipsum '.repeat(8)}` }, turnId }));
    lines.push(JSON.stringify({ type: 'message', ts, message: { role: 'assistant', content: `answer ${i}: ${'dolor sit amet '.repeat(8)}` }, turnId }));
  }
  writeFileSync(file, lines.join('\n') + '\n');
}

export async function resumeSuite(ctx: SuiteContext): Promise<Figure[]> {
  buildOnce();
  const home = join(ctx.tmp, 'resume');
  mkdirSync(join(home, 'sessions', 'a'), { recursive: true });
  writeFileSync(join(home, 'config.json'), JSON.stringify({ agents: { a: { model: 'mock' } } }));
  const file = join(home, 'sessions', 'a', `${SESSION}.jsonl`);
  writeSession(file);
  const mb = statSync(file).size / 1024 ** 2;
  const cli = join(ROOT, 'dist/cli.js');
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PEPE_HOME: home };
  const node = cpuTimedNode(ctx.tmp);
  const timed = (args: string[], expect: RegExp) => async () => {
    const r = node(args, { cwd: home, env });
    if (r.status !== 0 || !expect.test(r.stdout) || !(r.ms > 0)) throw new Error(`bench: node ${args.join(' ')} exited ${r.status}: ${r.stderr || r.stdout}`);
    return r.ms;
  };
  const resume = timed([cli, 'run', 'a', 'hello', '--provider', 'fake', '--session', SESSION], /You said: hello/);
  const first = await resume();
  const variants = {
    node: timed(['-e', '0'], /^$/),
    fresh: timed([cli, 'run', 'a', 'hello', '--provider', 'fake'], /You said: hello/),
    resume,
  };
  for (const v of Object.values(variants)) await v();
  const s = await interleave(ctx.quick ? 4 : 12, variants);
  const n = MESSAGES.toLocaleString('en');
  return [
    figure('resume', 'resume.first', `first resume of a never-compacted ${n}-message session (${mb.toFixed(0)} MB; compacts it), CPU time`, 'ms', [first], { note: 'one sample: compaction runs once, then the file holds a compaction line' }),
    figure('resume', 'resume.cpu', `resume a ${n}-message session and answer (\`pepe run --session\`, mock model), CPU time`, 'ms', s.resume, { below: 1000, targetText: '< 1 s CPU' }),
    figure('resume', 'resume.fresh', 'one-turn `pepe run` on a fresh session (the same command without --session), CPU time', 'ms', s.fresh),
    figure('resume', 'resume.added', `what the ${n} messages add (paired: resume − fresh run)`, 'ms', pairedDiff(s.resume, s.fresh)),
    figure('resume', 'resume.ratio', 'resume ÷ `node -e 0` (paired)', '×', pairedRatio(s.resume, s.node)),
  ];
}
