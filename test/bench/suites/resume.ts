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
 *
 * The next turn in a running host (the extension, `pepe chat`): one process, the same 50,000-message
 * session already answered once there, then each further turn timed by the process's CPU time,
 * paired with a turn in a short session of the same host. What a long conversation adds to every
 * turn after the first, once its transcript is kept parsed.
 */
import { copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { createPepe } from '../../../src/core/pepe.js';
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
  const host = await nextTurns(ctx, file);
  return [
    figure('resume', 'resume.first', `first resume of a never-compacted ${n}-message session (${mb.toFixed(0)} MB; compacts it), CPU time`, 'ms', [first], { note: 'one sample: compaction runs once, then the file holds a compaction line' }),
    figure('resume', 'resume.cpu', `resume a ${n}-message session and answer (\`pepe run --session\`, mock model), CPU time`, 'ms', s.resume, { below: 1000, targetText: '< 1 s CPU' }),
    figure('resume', 'resume.fresh', 'one-turn `pepe run` on a fresh session (the same command without --session), CPU time', 'ms', s.fresh),
    figure('resume', 'resume.added', `what the ${n} messages add (paired: resume − fresh run)`, 'ms', pairedDiff(s.resume, s.fresh)),
    figure('resume', 'resume.ratio', 'resume ÷ `node -e 0` (paired)', '×', pairedRatio(s.resume, s.node)),
    figure('resume', 'resume.next_turn', `a further turn of the ${n}-message session in a running host, CPU time`, 'ms', host.long),
    figure('resume', 'resume.next_turn_short', 'a further turn of a short session in the same host, CPU time', 'ms', host.short),
    figure('resume', 'resume.next_turn_added', `what the ${n} messages add to a further turn (paired)`, 'ms', pairedDiff(host.long, host.short), { below: 20, targetText: '< 20 ms CPU' }),
  ];
}

/** Turns of a long and a short session in one in-process host, each after a first one there. */
async function nextTurns(ctx: SuiteContext, longFile: string): Promise<{ long: number[]; short: number[] }> {
  const home = join(ctx.tmp, 'resume-host');
  mkdirSync(join(home, 'sessions', 'a'), { recursive: true });
  writeFileSync(join(home, 'config.json'), JSON.stringify({ agents: { a: { model: 'mock' } } }));
  copyFileSync(longFile, join(home, 'sessions', 'a', `${SESSION}.jsonl`));
  const pepe = await createPepe({ home, env: {}, workspace: home, prompter: null });
  try {
    const short = (await pepe.run({ agent: 'a', text: 'hello', personPresent: false })).sessionId;
    const turn = (sessionId: string) => async () => {
      const before = process.cpuUsage();
      const r = await pepe.run({ agent: 'a', text: 'hello', sessionId, personPresent: false });
      const used = process.cpuUsage(before);
      if (r.status !== 'ok' || !r.content) throw new Error(`bench: the turn gave no answer (${r.status}: ${r.error ?? ''})`);
      return (used.user + used.system) / 1000;
    };
    const variants = { long: turn(SESSION), short: turn(short) };
    for (const v of Object.values(variants)) await v();
    return await interleave(ctx.quick ? 4 : 12, variants);
  } finally {
    pepe.dispose();
  }
}
