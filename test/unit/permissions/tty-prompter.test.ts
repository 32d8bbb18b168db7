import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The terminal approval prompt in a real pseudo-terminal (util-linux `script`): a model-written
 * command full of control characters must reach the terminal escaped, never raw, and the answer
 * typed at the prompt decides.
 */
const ROOT = join(import.meta.dirname, '../../..');
const CHILD = join(ROOT, 'test/fixtures/permissions/tty-prompt-child.ts');
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/** `answers`: what to type once each prompt text is on the screen, in order. */
function runInTerminal(command: string, answers: Array<[string, string]>): Promise<string> {
  return new Promise((resolve, reject) => {
    const inner = `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(CHILD)}`;
    const child = spawn('script', ['-qfec', inner, '/dev/null'], { cwd: ROOT, env: { ...process.env, PAYLOAD_COMMAND: command, TERM: 'xterm' } });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => {
      chunks.push(c);
      // Answer once the prompt is on the screen, as a person would.
      const next = answers[0];
      if (next && Buffer.concat(chunks).toString('utf8').includes(next[0])) {
        answers.shift();
        child.stdin.write(next[1]);
      }
    });
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no result in time:\n${Buffer.concat(chunks).toString('utf8')}`));
    }, 30_000);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    child.on('error', reject);
  });
}

describe('the terminal approval prompt in a real terminal', function () {
  this.timeout(60_000);
  before(function () {
    if (!hasScript) this.skip();
  });

  const PAYLOAD = 'echo safe\r\u001b[2Krm -rf important \u001b]0;owned\u0007\u202egnp.exe\u200b';

  it('shows model-controlled control characters escaped, never raw', async () => {
    const screen = await runInTerminal(PAYLOAD, [['approve? ', 'd\r'], ['reason for the agent', '\r']]);
    const result = /RESULT (.*)/.exec(screen);
    assert.ok(result, screen);
    const parsed = JSON.parse(result[1]!) as { allowed: boolean; by: string; hints: string[] };
    assert.equal(parsed.allowed, false);
    assert.equal(parsed.by, 'user');
    assert.ok(parsed.hints.includes('hidden_characters'), JSON.stringify(parsed.hints));
    for (const raw of ['safe\r', '\u001b[2Krm', '\u001b]0;owned', '\u001b]0;pwned', '\u202e', '\u200b', '\u0007']) {
      assert.ok(!screen.includes(raw), `${JSON.stringify(raw)} reached the terminal raw:\n${JSON.stringify(screen)}`);
    }
    assert.ok(screen.includes("$'echo safe\\r\\e[2Krm -rf important \\e]0;owned\\x07\\u{202e}gnp.exe\\u{200b}'"), JSON.stringify(screen));
    assert.ok(screen.includes('billing\\e]0;pwned\\x07'), 'the agent name is escaped too');
  });

  it('reads the answer typed at the prompt', async () => {
    const screen = await runInTerminal('rm -rf build', [['approve? ', 'o\r']]);
    const result = /RESULT (.*)/.exec(screen);
    assert.ok(result, screen);
    assert.deepEqual(JSON.parse(result[1]!), { allowed: true, by: 'user', hints: ['delete'] });
  });
});
