import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolMessage } from '../../../src/core/messages.js';
import { HookRunner } from '../../../src/core/runtime/hook-runner.js';
import { script, ScriptedPrompter, type Step } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

/**
 * Hooks in Claude Code's shape, run for real (confined with bubblewrap) around real turns.
 * Failed against bfd1589: config.json's "hooks" was an unknown key and nothing ran.
 */
describe('hooks', function () {
  this.timeout(60_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const toolResults = (messages: { role: string }[]) => messages.filter((m): m is ToolMessage => m.role === 'tool');
  const hook = (event: string, command: string, matcher = 'bash', timeout?: number) => ({ [event]: [{ matcher, hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] }] });

  async function turn(hooks: Record<string, unknown>, steps: Step[], agent: Record<string, unknown> = {}, decisions: ConstructorParameters<typeof ScriptedPrompter>[0] = []) {
    home.writeConfig({ hooks, agents: { a: { model: script(home, `a${Math.random()}`, steps), ...agent } } });
    const prompter = new ScriptedPrompter(decisions);
    const pepe = await home.pepe({ workspace: home.workspace, prompter });
    const result = await pepe.run({ agent: 'a', text: 'go' });
    assert.equal(result.status, 'ok', result.error);
    return { pepe, prompter, result, results: toolResults(result.messages) };
  }

  const bash = (command: string): Step => ({ tool_calls: [{ name: 'bash', arguments: { command } }] });

  it('a hook that denies (exit 2): the call does not run, nobody is asked, and the model sees the hook\'s stderr', async () => {
    const { prompter, results } = await turn(hook('PreToolUse', 'echo "writing files is off today" >&2; exit 2'), [bash('echo hi > made.txt'), { text: 'ok' }], { auto_approve: ['bash'] });
    assert.equal(prompter.requests.length, 0);
    assert.match(results[0]!.content, /Denied by a hook: writing files is off today/);
    assert.ok(!existsSync(join(home.workspace, 'made.txt')));
  });

  it('the hook reads the event as JSON on stdin (session, agent, tool, input, cwd)', async () => {
    const { results, result } = await turn(hook('PreToolUse', 'cat >&2; exit 2'), [bash('ls'), { text: 'ok' }]);
    const event = JSON.parse(results[0]!.content.replace(/^Denied by a hook: /, ''));
    assert.deepEqual(
      { name: event.hook_event_name, tool: event.tool_name, input: event.tool_input, agent: event.agent, session: event.session_id },
      { name: 'PreToolUse', tool: 'bash', input: { command: 'ls' }, agent: 'a', session: result.sessionId },
    );
    assert.equal(typeof event.cwd, 'string');
  });

  it('a hook runs confined: PEPE_HOME is hidden from it and it has no network', async () => {
    const probe = `if [ -e ${home.dir}/config.json ]; then echo home-visible >&2; else echo home-hidden >&2; fi; exit 2`;
    const { results } = await turn(hook('PreToolUse', probe), [bash('ls'), { text: 'ok' }]);
    assert.match(results[0]!.content, /home-hidden/);
  });

  it('a hook that hangs is stopped at its deadline and the call is asked (fail closed), even when pre-approved', async () => {
    const { prompter, pepe } = await turn(hook('PreToolUse', 'sleep 60', 'bash', 1), [bash('ls'), { text: 'ok' }], { auto_approve: ['bash'] }, [{ kind: 'allow_once' }]);
    assert.equal(prompter.requests.length, 1);
    const why = prompter.requests[0]!.why.find((w) => w.kind === 'hook');
    assert.ok(why && why.kind === 'hook' && /no answer within 1 s/.test(why.reason), JSON.stringify(prompter.requests[0]!.why));
    assert.match(prompter.requests[0]!.whyText, /a hook asked for it/i);
    assert.ok(pepe['log'].readKind('info').some((e) => /before-tool hook failed, so the call is asked/.test(e.message)));
  });

  it('a hook that answers "allow" cannot skip the barrier: the call is still asked, and the answer is logged as ignored', async () => {
    const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"trust me"}}'`;
    const steps: Step[] = [{ tool_calls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'x' } }] }, { text: 'ok' }];
    const { prompter, pepe } = await turn(hook('PreToolUse', allow, 'write_file|Write'), steps, {}, [{ kind: 'deny', reason: 'no' }]);
    assert.equal(prompter.requests.length, 1, 'still asked');
    assert.ok(!existsSync(join(home.workspace, 'x.txt')));
    assert.ok(pepe['log'].readKind('info').some((e) => /answered "allow", which is ignored/.test(e.message)));
  });

  it('a hook that answers garbage makes the call ask; "ask" makes even a free tool ask', async () => {
    let r = await turn(hook('PreToolUse', "echo '{not json'"), [bash('ls'), { text: 'ok' }], { auto_approve: ['bash'] }, [{ kind: 'allow_once' }]);
    assert.equal(r.prompter.requests.length, 1);
    const ask = `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"reading secrets?"}}'`;
    r = await turn(hook('PreToolUse', ask, 'Read'), [{ tool_calls: [{ name: 'read_file', arguments: { path: 'nothing.txt' } }] }, { text: 'ok' }], {}, [{ kind: 'deny', reason: 'no' }]);
    assert.equal(r.prompter.requests.length, 1);
    assert.match(r.prompter.requests[0]!.whyText, /reading secrets\?/);
  });

  it('after a tool: a hook adds context for the model, or marks the result as outside content; a crash is ignored', async () => {
    const ctx = `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 0 problems"}}'`;
    let r = await turn(hook('PostToolUse', ctx), [bash('echo ran'), { text: 'ok' }], { auto_approve: ['bash'] });
    assert.match(r.results[0]!.content, /ran[\s\S]*\[hook context\]\nlint: 0 problems/);
    assert.equal(r.result.tookInOutsideContent, false);
    const mark = `echo '{"hookSpecificOutput":{"outsideContent":true}}'`;
    r = await turn(hook('PostToolUse', mark), [bash('echo ran'), { text: 'ok' }], { auto_approve: ['bash'] });
    assert.equal(r.result.tookInOutsideContent, true);
    r = await turn(hook('PostToolUse', 'kill -9 $$'), [bash('echo ran'), { text: 'ok' }], { auto_approve: ['bash'] });
    assert.match(r.results[0]!.content, /ran/);
    assert.ok(r.pepe['log'].readKind('info').some((e) => /PostToolUse hook (failed|exited)/.test(e.message)));
  });

  it('where commands cannot be confined, a before-tool hook does not run and its call is asked', async () => {
    const runner = new HookRunner({
      hooks: () => [{ event: 'PreToolUse', matcher: 'bash', command: 'exit 0', timeoutS: 5, source: 'config.json', personal: true }],
      workspace: home.workspace,
      pepeHome: home.dir,
      env: () => ({}),
      secrets: () => [],
      log: () => undefined,
      confinement: async () => ({ confined: false, reason: 'no bubblewrap' }),
    });
    const v = await runner.preToolUse('bash', {});
    assert.equal(v.kind, 'ask');
    assert.match((v as { reason: string }).reason, /confinement is not available here \(no bubblewrap\)/);
    assert.deepEqual(await runner.preToolUse('read_file', {}), { kind: 'none' }, 'a matcher names the tools it applies to');
  });

  it('UserPromptSubmit can block the prompt or add context; SessionStart adds context to a new session; Stop is told', async () => {
    const stopMarker = 'stop-ran';
    const hooks = {
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: `grep -q forbidden && { echo 'not that' >&2; exit 2; } || echo 'the build is green'` }] }],
      SessionStart: [{ hooks: [{ type: 'command', command: "echo '{\"hookSpecificOutput\":{\"additionalContext\":\"branch: main\"}}'" }] }],
      Stop: [{ hooks: [{ type: 'command', command: `touch ${stopMarker}` }] }],
    };
    home.writeConfig({ hooks, agents: { a: { model: 'mock' } } });
    const pepe = await home.pepe({ workspace: home.workspace });
    await assert.rejects(pepe.run({ agent: 'a', text: 'do the forbidden thing' }), /the prompt was blocked by a hook: not that/);
    const r = await pepe.run({ agent: 'a', text: 'hello' });
    assert.equal(r.status, 'ok', r.error);
    const user = r.messages.find((m) => m.role === 'user')!;
    assert.match(String(user.content), /hello\n\n\[hook context\]\nbranch: main\nthe build is green/);
    assert.ok(existsSync(join(home.workspace, stopMarker)));
  });

  it('a hooks section with a bad matcher is set aside with a clear problem', async () => {
    home.writeConfig({ hooks: { PreToolUse: [{ matcher: '(', hooks: [{ type: 'command', command: 'true' }] }] }, agents: { a: { model: 'mock' } } });
    const pepe = await home.pepe({ workspace: home.workspace });
    assert.deepEqual(pepe.configSetAside().map((s) => s.section), ['hooks']);
  });
});
