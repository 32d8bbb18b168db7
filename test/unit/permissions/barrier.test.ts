import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BarrierEvent } from '../../../src/core/permissions/approval.js';
import { PermissionBarrier } from '../../../src/core/permissions/barrier.js';
import { markOutsideContent, newRunState } from '../../../src/core/permissions/run-state.js';
import { SessionGrants } from '../../../src/core/permissions/session-grants.js';
import { call, harness, makeTempDir, removeDir, ScriptedPrompter } from './helpers.js';

const RISKY = { command: 'rm -rf build' };
const HARMLESS = { command: 'ls -la' };

describe('PermissionBarrier', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => removeDir(dir));

  const decided = (events: BarrierEvent[]) => events.filter((e) => e.type === 'approval_decided');
  const requested = (events: BarrierEvent[]) => events.filter((e) => e.type === 'approval_requested');

  describe('free tools (spec 5.1)', () => {
    for (const tool of ['read_file', 'list_dir', 'memory_search', 'remember', 'web_search', 'send_to_agent']) {
      it(`${tool} runs without a prompt, with or without a person`, async () => {
        const prompter = new ScriptedPrompter([]);
        const withPerson = harness(dir, { prompter });
        assert.deepEqual(await withPerson.barrier.check(call(tool, { path: 'x' })), { allowed: true, by: 'free', risks: [] });
        const nobody = harness(dir);
        assert.deepEqual(await nobody.barrier.check(call(tool, { path: 'x' })), { allowed: true, by: 'free', risks: [] });
        assert.equal(prompter.asked.length, 0);
        assert.deepEqual(withPerson.events, []);
        assert.deepEqual(await nobody.pending.list(), []);
      });
    }
  });

  describe('shell tools', () => {
    it('runs a risk-free bash command without a prompt when a person is present', async () => {
      const prompter = new ScriptedPrompter([]);
      const h = harness(dir, { prompter });
      assert.deepEqual(await h.barrier.check(call('bash', HARMLESS)), { allowed: true, by: 'free', risks: [] });
      assert.deepEqual(await h.barrier.check(call('run_script', { program: 'git', argv: ['status'] })), { allowed: true, by: 'free', risks: [] });
      assert.equal(prompter.asked.length, 0);
    });

    it('refuses and parks the same risk-free command when nobody is present (spec 5.4)', async () => {
      const h = harness(dir);
      const outcome = await h.barrier.check(call('bash', HARMLESS, { toolCallId: 'tc1' }));
      assert.equal(outcome.allowed, false);
      assert.ok(!outcome.allowed && outcome.by === 'no_person', "!outcome.allowed && outcome.by === 'no_person'");
      assert.match(outcome.reason, /nobody is present/);
      assert.match(outcome.reason, /not a decision by the user/);
      assert.doesNotMatch(outcome.reason, /user (said no|denied)/i);
      assert.ok(outcome.pendingId && /^[0-9a-f]{8}$/.test(outcome.pendingId), "outcome.pendingId && /^[0-9a-f]{8}$/.test(outcome.pendingId)");
      assert.match(outcome.reason, new RegExp(`pepe approvals approve ${outcome.pendingId}`));

      const file = join(dir, 'approvals', `${outcome.pendingId}.json`);
      assert.ok(existsSync(file), "existsSync(file)");
      const stored = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(stored.status, 'pending');
      assert.equal(stored.tool, 'bash');
      assert.deepEqual(stored.args, HARMLESS);
      assert.deepEqual(stored.chain, ['triage', 'billing']);
      assert.equal(stored.cwd, '/work/project');
      assert.equal(stored.parkedBecause, 'no_person');
      assert.equal(stored.toolCallId, 'tc1');
      assert.match(stored.why, /only while a person is present/);

      const d = decided(h.events);
      assert.equal(d.length, 1);
      assert.ok(d[0]!.type === 'approval_decided' && d[0]!.by === 'no_person' && d[0]!.pendingId === outcome.pendingId && d[0]!.requestId === null, "d[0]!.type === 'approval_decided' && d[0]!.by === 'no_person' && d[0]!.pendingId === outcome.pendingId && d[0]!.requestId === null");
      assert.equal(requested(h.events).length, 0);
    });

    it('treats a prompter that is not interactive as nobody present', async () => {
      const prompter = new ScriptedPrompter([], false);
      const h = harness(dir, { prompter });
      assert.equal(h.barrier.personPresent, false);
      const outcome = await h.barrier.check(call('bash', RISKY));
      assert.ok(!outcome.allowed && outcome.by === 'no_person', "!outcome.allowed && outcome.by === 'no_person'");
      assert.equal(prompter.asked.length, 0);
    });

    it('asks about a risky command and shows the hints, the command line, cwd and the chain', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'allow_once' }]);
      const h = harness(dir, { prompter, sessionId: 's-1' });
      const outcome = await h.barrier.check(call('bash', RISKY, { toolCallId: 'tc9' }));
      assert.equal(outcome.allowed, true);
      const req = prompter.asked[0]!;
      assert.deepEqual(req.chain, ['triage', 'billing']);
      assert.equal(req.agent, 'billing');
      assert.equal(req.tool, 'bash');
      assert.deepEqual(req.args, RISKY);
      assert.equal(req.cwd, '/work/project');
      assert.equal(req.sessionId, 's-1');
      assert.equal(req.toolCallId, 'tc9');
      assert.match(req.id, /^[0-9a-f]{8}$/);
      assert.deepEqual(req.riskHints.map((r) => r.kind), ['delete']);
      assert.deepEqual(req.why, [{ kind: 'risk_hints', count: 1 }]);
      assert.match(req.summary, /rm -rf build/);
      assert.match(req.summary, /\/work\/project/);
      assert.match(req.whyText, /deletes/);
    });

    it('appends the agent to a chain that does not end with it', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'allow_once' }]);
      const h = harness(dir, { prompter });
      await h.barrier.check(call('bash', RISKY, { chain: ['triage'] }));
      assert.deepEqual(prompter.asked[0]!.chain, ['triage', 'billing']);
      const direct = new ScriptedPrompter([{ kind: 'allow_once' }]);
      await harness(dir, { prompter: direct }).barrier.check(call('bash', RISKY, { chain: undefined }));
      assert.deepEqual(direct.asked[0]!.chain, ['billing']);
    });
  });

  describe('always-gated tools', () => {
    for (const tool of ['write_file', 'switch_agent', 'set_route']) {
      it(`${tool} asks even with a person present and harmless arguments`, async () => {
        const prompter = new ScriptedPrompter([{ kind: 'allow_once' }]);
        const h = harness(dir, { prompter });
        const outcome = await h.barrier.check(call(tool, { path: 'a.txt', content: 'x', target: 'refunds', to: 'refunds', action: 'allow' }));
        assert.equal(outcome.allowed, true);
        assert.deepEqual(prompter.asked[0]!.why, [{ kind: 'gated_tool', known: true }]);
      });
    }

    it('treats plugin and unknown tools as risky', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'allow_once' }]);
      const h = harness(dir, { prompter });
      await h.barrier.check(call('acme_deploy', { env: 'prod' }));
      assert.deepEqual(prompter.asked[0]!.why, [{ kind: 'gated_tool', known: false }]);
      assert.match(prompter.asked[0]!.whyText, /plugin or unknown/);
    });
  });

  describe('decisions (spec 5.2)', () => {
    it('allow_once lets this call through and asks again next time', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'allow_once' }, { kind: 'allow_once' }]);
      const h = harness(dir, { prompter });
      const first = await h.barrier.check(call('bash', RISKY));
      assert.ok(first.allowed && first.by === 'user' && first.decision.kind === 'allow_once', "first.allowed && first.by === 'user' && first.decision.kind === 'allow_once'");
      await h.barrier.check(call('bash', RISKY));
      assert.equal(prompter.asked.length, 2);
      assert.deepEqual(h.persisted, []);
    });

    it('allow_session covers the same tool with the same arguments only', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'allow_session' }, { kind: 'deny' }]);
      const h = harness(dir, { prompter });
      await h.barrier.check(call('bash', RISKY));
      assert.deepEqual(await h.barrier.check(call('bash', { ...RISKY })), {
        allowed: true,
        by: 'session_grant',
        grant: 'exact',
        risks: ['delete'],
      });
      const other = await h.barrier.check(call('bash', { command: 'rm -rf dist' }));
      assert.equal(other.allowed, false);
      assert.equal(prompter.asked.length, 2);
    });

    it('matches session arguments regardless of key order', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'allow_session' }]);
      const h = harness(dir, { prompter });
      await h.barrier.check(call('write_file', { path: 'a', content: 'x' }));
      const again = await h.barrier.check(call('write_file', { content: 'x', path: 'a' }));
      assert.deepEqual(again, { allowed: true, by: 'session_grant', grant: 'exact', risks: ['write'] });
    });

    it('allow_session_any covers the same tool with any arguments, for this agent only', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'allow_session_any' }, { kind: 'allow_once' }]);
      const h = harness(dir, { prompter });
      await h.barrier.check(call('bash', RISKY));
      assert.deepEqual(await h.barrier.check(call('bash', { command: 'curl https://x' })), { allowed: true, by: 'session_grant', grant: 'any', risks: ['network'] });
      // Routing never launders permissions: triage was not granted anything.
      await h.barrier.check(call('bash', RISKY, { agent: 'triage', chain: ['triage'] }));
      assert.equal(prompter.asked.length, 2);
      // Another tool is not covered.
      const fresh = new ScriptedPrompter([{ kind: 'allow_once' }]);
      const h2 = harness(dir, { prompter: fresh, grants: h.barrier.grants });
      await h2.barrier.check(call('write_file', { path: 'x' }));
      assert.equal(fresh.asked.length, 1);
    });

    it('always persists the tool through the callback and stops asking this session', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'always' }]);
      const h = harness(dir, { prompter });
      const outcome = await h.barrier.check(call('bash', RISKY));
      assert.ok(outcome.allowed && outcome.by === 'user' && outcome.decision.kind === 'always' && outcome.warning === undefined, "outcome.allowed && outcome.by === 'user' && outcome.decision.kind === 'always' && outcome.warning === undefined");
      assert.deepEqual(h.persisted, [['billing', 'bash:delete']]);
      assert.equal((await h.barrier.check(call('bash', { command: 'rm other' }))).allowed, true);
      assert.equal(prompter.asked.length, 1);
      // A later session reads it from the agent's auto_approve.
      const later = harness(dir, { prompter: new ScriptedPrompter([]) });
      assert.deepEqual(await later.barrier.check(call('bash', RISKY, { config: { auto_approve: ['bash:delete'] } })), { allowed: true, by: 'auto_approve', entry: 'bash:delete', risks: ['delete'] });
    });

    it('always still allows the call when saving fails, and says so', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'always' }]);
      const h = harness(dir, {
        prompter,
        persistAlwaysAllow: async () => {
          throw new Error('config.json is invalid');
        },
      });
      const outcome = await h.barrier.check(call('bash', RISKY));
      assert.ok(outcome.allowed && outcome.by === 'user', "outcome.allowed && outcome.by === 'user'");
      assert.match(outcome.warning ?? '', /could not be saved: config.json is invalid/);
    });

    it('deny refuses with the reason for the model', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'deny', reason: 'not on main' }, { kind: 'deny' }]);
      const h = harness(dir, { prompter });
      const outcome = await h.barrier.check(call('bash', RISKY));
      assert.deepEqual(outcome, {
        allowed: false,
        by: 'user',
        reason: 'The user denied this call. Reason: not on main',
        userReason: 'not on main',
        requestId: prompter.asked[0]!.id,
      });
      const bare = await h.barrier.check(call('bash', RISKY));
      assert.ok(!bare.allowed && bare.by === 'user' && bare.reason === 'The user denied this call.' && bare.userReason === undefined, "!bare.allowed && bare.by === 'user' && bare.reason === 'The user denied this call.' && bare.userReason === undefined");
      assert.deepEqual(await h.pending.list(), []);
    });

    it('emits approval_requested then approval_decided with who decided and what', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'allow_session' }]);
      const h = harness(dir, { prompter });
      await h.barrier.check(call('bash', RISKY));
      assert.deepEqual(
        h.events.map((e) => e.type),
        ['approval_requested', 'approval_decided'],
      );
      const [req, dec] = h.events;
      assert.ok(req?.type === 'approval_requested' && dec?.type === 'approval_decided', 'requested, then decided');
      assert.equal(dec.requestId, req.request.id);
      assert.equal(dec.by, 'user');
      assert.equal(dec.allowed, true);
      assert.deepEqual(dec.decision, { kind: 'allow_session' });
      assert.deepEqual(dec.chain, ['triage', 'billing']);
      // The grant that lets the next call through is reported too.
      await h.barrier.check(call('bash', RISKY));
      const last = h.events.at(-1)!;
      assert.ok(last.type === 'approval_decided' && last.by === 'session_grant' && last.requestId === null, "last.type === 'approval_decided' && last.by === 'session_grant' && last.requestId === null");
    });
  });

  describe('pre-approval (auto_approve)', () => {
    it('lets a gated call run without asking, with or without a person', async () => {
      const prompter = new ScriptedPrompter([]);
      const h = harness(dir, { prompter });
      assert.deepEqual(await h.barrier.check(call('write_file', { path: 'x' }, { config: { auto_approve: ['write_file'] } })), { allowed: true, by: 'auto_approve', entry: 'write_file', risks: ['write'] });
      assert.deepEqual(await h.barrier.check(call('bash', RISKY, { config: { auto_approve: '*' } })), { allowed: true, by: 'auto_approve', entry: '*', risks: ['delete'] });
      const nobody = harness(dir);
      assert.deepEqual(await nobody.barrier.check(call('bash', RISKY, { config: { auto_approve: ['bash'] } })), { allowed: true, by: 'auto_approve', entry: 'bash', risks: ['delete'] });
      assert.deepEqual(await nobody.pending.list(), []);
      const last = h.events.at(-1)!;
      assert.ok(last.type === 'approval_decided' && last.by === 'auto_approve', "last.type === 'approval_decided' && last.by === 'auto_approve'");
    });

    it('covers only the listed tools', async () => {
      const h = harness(dir);
      const outcome = await h.barrier.check(call('write_file', { path: 'x' }, { config: { auto_approve: ['bash'] } }));
      assert.ok(!outcome.allowed && outcome.by === 'no_person', "!outcome.allowed && outcome.by === 'no_person'");
    });
  });

  describe('outside content withdraws pre-approval (spec 5.3)', () => {
    it('withdraws auto_approve for the rest of the run, and asks instead', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'allow_once' }]);
      const h = harness(dir, { prompter });
      const run = newRunState();
      const config = { auto_approve: ['bash'] as string[] };
      assert.deepEqual(await h.barrier.check(call('bash', RISKY, { run, config })), { allowed: true, by: 'auto_approve', entry: 'bash', risks: ['delete'] });
      markOutsideContent(run, 'web_search');
      const after = await h.barrier.check(call('bash', RISKY, { run, config }));
      assert.ok(after.allowed && after.by === 'user', "after.allowed && after.by === 'user'");
      assert.deepEqual(prompter.asked[0]!.why, [
        { kind: 'risk_hints', count: 1 },
        { kind: 'outside_content', withdrew: ['auto_approve'], sources: ['web_search'] },
      ]);
      assert.match(prompter.asked[0]!.whyText, /outside content entered this turn \(web_search\)/);
      // The next turn starts a new run: pre-approval is back.
      assert.deepEqual(await h.barrier.check(call('bash', RISKY, { run: newRunState(), config })), { allowed: true, by: 'auto_approve', entry: 'bash', risks: ['delete'] });
    });

    it('withdraws the risk-free shell path', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'allow_once' }]);
      const h = harness(dir, { prompter });
      const run = newRunState();
      markOutsideContent(run, 'web_search');
      const outcome = await h.barrier.check(call('bash', HARMLESS, { run }));
      assert.ok(outcome.allowed && outcome.by === 'user', "outcome.allowed && outcome.by === 'user'");
      assert.deepEqual(prompter.asked[0]!.why, [{ kind: 'outside_content', withdrew: ['risk_free_shell'], sources: ['web_search'] }]);
    });

    it('withdraws the "any arguments" session grant but keeps exact ones', async () => {
      const prompter = new ScriptedPrompter([{ kind: 'allow_session_any' }, { kind: 'allow_session' }, { kind: 'deny' }]);
      const h = harness(dir, { prompter });
      const run = newRunState();
      await h.barrier.check(call('write_file', { path: 'a' }, { run }));
      await h.barrier.check(call('bash', RISKY, { run }));
      markOutsideContent(run, 'web_search');
      // The person approved exactly this command line this session; it still runs.
      assert.deepEqual(await h.barrier.check(call('bash', RISKY, { run })), { allowed: true, by: 'session_grant', grant: 'exact', risks: ['delete'] });
      const any = await h.barrier.check(call('write_file', { path: 'b' }, { run }));
      assert.equal(any.allowed, false);
      assert.deepEqual(prompter.asked[2]!.why, [
        { kind: 'gated_tool', known: true },
        { kind: 'outside_content', withdrew: ['session_grant'], sources: ['web_search'] },
      ]);
    });

    it('with nobody present, a withdrawn pre-approval means refused and parked', async () => {
      const h = harness(dir);
      const run = newRunState();
      markOutsideContent(run, 'web_search');
      const outcome = await h.barrier.check(call('bash', RISKY, { run, config: { auto_approve: '*' } }));
      assert.ok(!outcome.allowed && outcome.by === 'no_person' && outcome.pendingId, "!outcome.allowed && outcome.by === 'no_person' && outcome.pendingId");
      const parked = await h.pending.get(outcome.pendingId);
      assert.match(parked.why ?? '', /withdrew its pre-approval/);
    });

    it('does not apply to an agent with trust_untrusted_content', async () => {
      const prompter = new ScriptedPrompter([]);
      const h = harness(dir, { prompter });
      const run = newRunState();
      markOutsideContent(run, 'web_search');
      const trusting = { trust_untrusted_content: true, auto_approve: ['bash'] };
      assert.deepEqual(await h.barrier.check(call('bash', RISKY, { run, config: trusting })), { allowed: true, by: 'auto_approve', entry: 'bash', risks: ['delete'] });
      assert.deepEqual(await h.barrier.check(call('bash', HARMLESS, { run, config: { trust_untrusted_content: true } })), { allowed: true, by: 'free', risks: [] });
      assert.equal(prompter.asked.length, 0);
    });

    it('leaves free tools free', async () => {
      const h = harness(dir, { prompter: new ScriptedPrompter([]) });
      const run = newRunState();
      markOutsideContent(run, 'web_search');
      assert.deepEqual(await h.barrier.check(call('read_file', { path: 'x' }, { run })), { allowed: true, by: 'free', risks: [] });
    });
  });

  describe('a prompt that fails is not a "no" (spec 5.4)', () => {
    it('reports a prompter that throws as prompt_failed, and parks the call', async () => {
      const prompter = new ScriptedPrompter([
        async () => {
          throw new Error('the terminal went away');
        },
      ]);
      const h = harness(dir, { prompter });
      const outcome = await h.barrier.check(call('bash', RISKY));
      assert.ok(!outcome.allowed && outcome.by === 'prompt_failed', "!outcome.allowed && outcome.by === 'prompt_failed'");
      assert.equal(outcome.timedOut, false);
      assert.match(outcome.reason, /the approval prompt failed \(the terminal went away\)/);
      assert.match(outcome.reason, /not a decision by the user/);
      assert.doesNotMatch(outcome.reason, /user (said no|denied)/i);
      assert.equal(outcome.pendingId, prompter.asked[0]!.id, 'parked under the request id');
      assert.equal((await h.pending.get(outcome.pendingId!)).parkedBecause, 'prompt_failed');
      const last = h.events.at(-1)!;
      assert.ok(last.type === 'approval_decided' && last.by === 'prompt_failed' && !last.allowed, "last.type === 'approval_decided' && last.by === 'prompt_failed' && !last.allowed");
    });

    it('reports a prompt that gets no answer in time as timed out', async () => {
      let sawAbort = false;
      const prompter = new ScriptedPrompter([
        (_req, signal) =>
          new Promise((_, reject) => {
            signal?.addEventListener('abort', () => {
              sawAbort = true;
              reject(new Error('closed'));
            });
          }),
      ]);
      const h = harness(dir, { prompter, promptTimeoutMs: 30 });
      const outcome = await h.barrier.check(call('bash', RISKY));
      assert.ok(!outcome.allowed && outcome.by === 'prompt_failed' && outcome.timedOut, "!outcome.allowed && outcome.by === 'prompt_failed' && outcome.timedOut");
      assert.match(outcome.reason, /the approval prompt timed out/);
      assert.ok(sawAbort, 'the prompter is told to close its prompt');
    });

    it('reports a prompter whose own timeout fires (TimeoutError) as timed out', async () => {
      const prompter = new ScriptedPrompter([async () => Promise.reject(Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' }))]);
      const outcome = await harness(dir, { prompter }).barrier.check(call('bash', RISKY));
      assert.ok(!outcome.allowed && outcome.by === 'prompt_failed' && outcome.timedOut, "!outcome.allowed && outcome.by === 'prompt_failed' && outcome.timedOut");
    });

    it('reports an answer that is not a decision as prompt_failed', async () => {
      const prompter = new ScriptedPrompter([async () => ({ kind: 'yes please' }) as never]);
      const outcome = await harness(dir, { prompter }).barrier.check(call('bash', RISKY));
      assert.ok(!outcome.allowed && outcome.by === 'prompt_failed' && !outcome.timedOut, "!outcome.allowed && outcome.by === 'prompt_failed' && !outcome.timedOut");
    });

    it('reports a turn cancelled while waiting as cancelled, and parks nothing', async () => {
      const controller = new AbortController();
      const prompter = new ScriptedPrompter([
        () => {
          setTimeout(() => controller.abort(), 5);
          return new Promise(() => undefined);
        },
      ]);
      const h = harness(dir, { prompter });
      const outcome = await h.barrier.check(call('bash', RISKY, { signal: controller.signal }));
      assert.ok(!outcome.allowed && outcome.by === 'cancelled', "!outcome.allowed && outcome.by === 'cancelled'");
      assert.deepEqual(await h.pending.list(), []);
    });

    it('without a pending store, refuses without parking', async () => {
      const barrier = new PermissionBarrier({ persistAlwaysAllow: async () => undefined });
      const outcome = await barrier.check(call('write_file', { path: 'x' }));
      assert.ok(!outcome.allowed && outcome.by === 'no_person' && outcome.pendingId === undefined, "!outcome.allowed && outcome.by === 'no_person' && outcome.pendingId === undefined");
    });
  });

  it('shares grants given to the constructor (one SessionGrants per session)', async () => {
    const grants = new SessionGrants();
    grants.grantAny('billing', 'write_file');
    const h = harness(dir, { grants });
    assert.deepEqual(await h.barrier.check(call('write_file', { path: 'x' })), { allowed: true, by: 'session_grant', grant: 'any', risks: ['write'] });
  });

  it('a broken event listener does not change the decision', async () => {
    const barrier = new PermissionBarrier({
      persistAlwaysAllow: async () => undefined,
      onEvent: () => {
        throw new Error('listener bug');
      },
      prompter: new ScriptedPrompter([{ kind: 'allow_once' }]),
    });
    assert.equal((await barrier.check(call('bash', RISKY))).allowed, true);
  });
});
