/**
 * The approval a person reads in three seconds (issue 26): one view for both surfaces. Against
 * bfd1589 the modal had ten buttons, showed a command three times (summary, arguments JSON, risk
 * text) and internal words ("Chain:", "inline_eval"); these tests pin the new view.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline/promises';
import { approvalView } from '../../../src/core/permissions/approval-view.js';
import { classifyShell, describeReasons, loadShellGrammar, summarizeCall, type ApprovalRequest } from '../../../src/core/permissions/index.js';
import { TtyPrompter } from '../../../src/cli/tty-prompter.js';

function bashRequest(command: string, over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  const verdict = classifyShell(command);
  const why = [{ kind: 'risk_hints' as const, count: verdict.hints.length }];
  return {
    id: 'abcd1234',
    agent: 'coder',
    chain: ['coder'],
    tool: 'bash',
    args: { command },
    cwd: '/home/p/ws',
    riskHints: verdict.hints,
    risks: [...new Set(verdict.hints.map((h) => h.kind))],
    summary: summarizeCall('coder', 'bash', { command }, '/home/p/ws'),
    why,
    whyText: describeReasons('bash', why, verdict.hints),
    createdAt: new Date().toISOString(),
    ...over,
  };
}

describe('the approval view (issue 26)', () => {
  before(() => loadShellGrammar());
  it('says who wants to do what in one line, and shows the command exactly once', () => {
    const command = 'curl -s https://example.com/x.sh -o x.sh && rm -rf build';
    const view = approvalView(bashRequest(command));
    assert.equal(view.headline, 'coder wants to run a command in ws');
    const text = [view.headline, view.body, ...view.risks, view.why].join('\n');
    assert.equal(text.split(command).length - 1, 1, text);
    assert.ok(!/Chain:|Arguments:|inline_eval|"command"/.test(text), text);
    assert.ok(view.risks.some((r) => r.startsWith('uses the network')), view.risks.join('\n'));
    assert.ok(view.risks.some((r) => r.startsWith('deletes files')), view.risks.join('\n'));
  });

  it('names the route when the call comes along one', () => {
    const view = approvalView(bashRequest('rm x', { chain: ['triage', 'coder'] }));
    assert.equal(view.via, 'asked by triage → coder');
  });

  it('an MCP call with no risks gets a short prompt with the tool by its own name and the server as a label', () => {
    const view = approvalView({
      ...bashRequest('true'),
      tool: 'mcp__everything__echo',
      args: { message: 'hi' },
      riskHints: [],
      risks: [],
      why: [{ kind: 'gated_tool', known: false }],
      summary: 'Call mcp__everything__echo with {"message":"hi"}',
    });
    assert.equal(view.headline, 'coder wants to use echo from the MCP server everything');
    assert.equal(view.short, true);
    assert.deepEqual(view.risks, []);
    assert.match(view.body, /"message": ?"hi"/);
  });

  it('scopes behind "Allow…": narrowest first, each explained, the wide ones marked; none for a once-only call', () => {
    const view = approvalView(bashRequest('echo a > f'));
    assert.deepEqual(view.scopes.map((s) => s.kind), ['allow_task', 'allow_session', 'allow_session_risks', 'always', 'allow_session_any', 'always_any', 'bypass_session']);
    assert.deepEqual(view.scopes.filter((s) => s.dangerous).map((s) => s.kind), ['allow_session_any', 'always_any', 'bypass_session']);
    assert.match(view.scopes[0]!.explain, /bash calls whose only risks are write/);
    assert.deepEqual(approvalView(bashRequest('echo a > f', { onceOnly: true })).scopes, []);
  });

  it('model-written control characters in the headline are made visible', () => {
    const view = approvalView({ ...bashRequest('true'), tool: 'write_file', args: { path: 'a\u202etxt.exe' } });
    assert.ok(!/\u202e/.test(view.headline), view.headline);
  });
});

describe('the terminal prompt: one line of choices, "?" for the scopes (issue 26)', () => {
  before(() => loadShellGrammar());
  async function answer(request: ApprovalRequest, lines: string[]): Promise<{ decision: unknown; shown: string }> {
    const input = new PassThrough();
    const rl = createInterface({ input, output: new PassThrough(), terminal: false });
    let shown = '';
    let asked = 0;
    const prompter = new TtyPrompter(rl, (t) => void (shown += t), false);
    const origQuestion = rl.question.bind(rl);
    (rl as unknown as { question: typeof rl.question }).question = ((q: string, o: object) => {
      const next = lines[asked++];
      const p = origQuestion(q, o as never);
      if (next !== undefined) setImmediate(() => input.write(next + '\n'));
      return p;
    }) as typeof rl.question;
    const decision = await prompter.ask(request);
    rl.close();
    return { decision, shown };
  }

  it('shows three choices; "?" lists the scopes; "t" gives a task grant', async () => {
    const { decision, shown } = await answer(bashRequest('echo a > f'), ['?', 't']);
    assert.match(shown, /\[o\] allow once {3}\[\?\] allow for longer… {3}\[d\] deny \(default\)/);
    assert.match(shown, /\[t\] For the rest of this task: bash calls whose only risks are write/);
    assert.match(shown, /\[bypass\] ⚠ Stop asking about coder/);
    assert.deepEqual(decision, { kind: 'allow_task' });
  });

  it('a wide scope is confirmed with "yes"; anything else grants nothing and asks again', async () => {
    const { decision, shown } = await answer(bashRequest('echo a > f'), ['bypass', 'no', 'o']);
    assert.match(shown, /not confirmed: nothing was granted/);
    assert.deepEqual(decision, { kind: 'allow_once' });
    const confirmed = await answer(bashRequest('echo a > f'), ['A*', 'yes']);
    assert.deepEqual(confirmed.decision, { kind: 'always_any' });
  });

  it('an empty line denies, with an optional reason', async () => {
    const { decision } = await answer(bashRequest('echo a > f'), ['', 'not now']);
    assert.deepEqual(decision, { kind: 'deny', reason: 'not now' });
  });
});
