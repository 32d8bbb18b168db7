import assert from 'node:assert/strict';
import { createInterface } from 'node:readline/promises';
import { PassThrough } from 'node:stream';
import { TtyPrompter } from '../../../src/cli/tty-prompter.js';
import { script } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

describe('permissions.prompt_timeout_seconds', function () {
  this.timeout(20_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const writeCall = (home: TempHome) => script(home, 'w', [{ tool_calls: [{ name: 'write_file', arguments: { path: 'x.txt', content: '1' } }] }, { text: 'done' }]);

  it('an unanswered prompt is neither consent nor refusal: the call is parked, pending, after the timeout', async () => {
    home.writeConfig({ permissions: { prompt_timeout_seconds: 0.3 }, agents: { w: { model: writeCall(home) } } });
    let asked = 0;
    const silent = { interactive: true, ask: () => (asked++, new Promise<never>(() => undefined)) };
    const pepe = await home.pepe({ workspace: home.workspace, prompter: silent });
    const started = Date.now();
    const result = await pepe.run({ agent: 'w', text: 'go' });
    assert.ok(Date.now() - started < 5_000, 'the turn did not wait forever');
    assert.equal(asked, 1);
    const tool = result.messages.find((m) => m.role === 'tool')!;
    assert.match(tool.content, /not a decision by the user/);
    const [parked] = await pepe.approvalList();
    assert.equal(parked?.status, 'pending');
    assert.equal(parked?.parkedBecause, 'prompt_failed');
  });

  it('without the setting a prompt waits (no timeout is invented)', async () => {
    home.writeConfig({ agents: { w: { model: writeCall(home) } } });
    let answer: (d: { kind: 'deny' }) => void = () => undefined;
    const slow = { interactive: true, ask: () => new Promise<{ kind: 'deny' }>((r) => (answer = r)) };
    const pepe = await home.pepe({ workspace: home.workspace, prompter: slow });
    const turn = pepe.run({ agent: 'w', text: 'go' });
    await new Promise((r) => setTimeout(r, 600));
    answer({ kind: 'deny' });
    const result = await turn;
    assert.match(result.messages.find((m) => m.role === 'tool')!.content, /denied/i);
    assert.deepEqual(await pepe.approvalList(), []);
  });

  it('the terminal prompt says the question timed out and that nothing was decided', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const rl = createInterface({ input, output, terminal: false });
    let shown = '';
    const prompter = new TtyPrompter(rl, (t) => (shown += t), false);
    const controller = new AbortController();
    const request = { id: 'abcd1234', agent: 'w', chain: ['w'], tool: 'bash', args: { command: 'ls' }, summary: 'ls', risks: [], whyText: 'asked', cwd: home.dir } as never;
    const asking = prompter.ask(request, controller.signal);
    const reason = new Error('no answer within 1 s');
    reason.name = 'TimeoutError';
    controller.abort(reason);
    await asking;
    assert.match(shown, /no answer within 1 s: not approved, not denied/);
    rl.close();
  });
});

describe('one prompt at a time', () => {
  it('a question given up frees the line: the next one is asked', async () => {
    const { onePromptAtATime } = await import('../../../src/core/runtime/one-prompt.js');
    const asked: string[] = [];
    const inner = { interactive: true, ask: (r: { id: string }) => (asked.push(r.id), r.id === 'hung' ? new Promise<never>(() => undefined) : Promise.resolve({ kind: 'allow_once' as const })) };
    const serial = onePromptAtATime(inner as never);
    const controller = new AbortController();
    const first = serial.ask({ id: 'hung' } as never, controller.signal);
    const second = serial.ask({ id: 'next' } as never);
    controller.abort(new Error('no answer within 1 s'));
    await assert.rejects(first, /no answer within 1 s/);
    assert.deepEqual(await second, { kind: 'allow_once' });
    assert.deepEqual(asked, ['hung', 'next']);
  });
});
