import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionBarrier } from '../../../src/core/permissions/barrier.js';
import { barrierLiveGrants, LiveGrants } from '../../../src/core/permissions/live-grants.js';
import { newRunState } from '../../../src/core/permissions/run-state.js';
import { SavedOnDisk } from '../../../src/core/permissions/saved-on-disk.js';
import { SessionGrants } from '../../../src/core/permissions/session-grants.js';
import type { Decision } from '../../../src/core/permissions/approval.js';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';
import { ScriptedPrompter } from '../permissions/helpers.js';

/**
 * Issue 25: what lets a call run unasked is listed by another process (`pepe grants list`), and a
 * revocation from that other process holds for the very next call of a barrier that is already
 * running — a turn in progress in another window — whether it was a saved entry (config.json,
 * which the running turn had read before), a session grant, the bypass or a task grant.
 */
describe('grants: listed and revoked from another process, effective at the next call', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const ws = () => home.workspace;
  function setup(autoApprove: string[], answers: Decision[]) {
    home.writeConfig({ agents: { a: { model: 'mock', auto_approve: autoApprove }, b: { model: 'mock' } } });
    const live = new LiveGrants(join(home.dir, 'grants'));
    const grants = new SessionGrants();
    live.adopt('k', 'a', 's1', grants);
    const prompter = new ScriptedPrompter(answers);
    const barrier = new PermissionBarrier({ prompter, grants, sessionId: 's1', persistAlwaysAllow: async () => undefined, live: barrierLiveGrants(live, new SavedOnDisk(home.config)) });
    const run = newRunState();
    const stop = live.trackRun('a', 's1', run);
    // The agent's configuration as the running turn read it at its start.
    const agentConfig = { auto_approve: autoApprove };
    const write = (agent = 'a') =>
      barrier.check({ agent, agentConfig, tool: 'write_file', args: { path: 'x.txt', content: 'x' }, cwd: ws(), run, facts: { paths: [{ real: join(ws(), 'x.txt'), inside: true, access: 'write' as const, inPepeHome: false }] } as never });
    return { live, prompter, write, stop, run };
  }

  async function listed(agent?: string): Promise<Array<{ id: string; kind: string; agent: string; scope: string; covers: string; revocable: boolean }>> {
    const r = await pepeCli(home.dir, ['grants', 'list', '--json', ...(agent ? ['--agent', agent] : [])], {}, ws());
    assert.equal(r.exitCode, 0, r.stderr);
    return JSON.parse(r.stdout);
  }

  it('a saved entry revoked by ID in another process: the running turn asks at its very next call', async () => {
    const t = setup(['write_file:write'], [{ kind: 'deny' }]);
    const first = await t.write();
    assert.equal(first.allowed && first.by, 'auto_approve');
    const saved = (await listed()).find((e) => e.kind === 'saved' && e.scope === 'write_file:write');
    assert.ok(saved, 'the saved entry is listed');
    assert.match(saved.covers, /write_file calls whose only risks are: writes, moves or changes files/);
    const r = await pepeCli(home.dir, ['grants', 'revoke', saved.id], {}, ws());
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`revoked ${saved.id}`));
    const next = await t.write();
    assert.equal(next.allowed, false);
    assert.equal(t.prompter.asked.length, 1, 'the person was asked');
    assert.equal((await listed()).some((e) => e.id === saved.id), false);
    t.stop();
  });

  it('a session grant given in this process is listed by another, and revoked from there', async () => {
    const t = setup([], [{ kind: 'allow_session_risks' }, { kind: 'deny' }]);
    assert.equal((await t.write()).allowed, true);
    assert.equal((await t.write()).allowed && 'session_grant', 'session_grant');
    assert.equal(t.prompter.asked.length, 1);
    const session = (await listed('a')).find((e) => e.kind === 'session');
    assert.ok(session, 'the session grant is listed by the other process');
    assert.equal(session.scope, 'write_file:write');
    assert.match(session.covers, /for the rest of session s1: write_file calls whose only risks are/);
    const r = await pepeCli(home.dir, ['grants', 'revoke', session.id], {}, ws());
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal((await t.write()).allowed, false);
    assert.equal(t.prompter.asked.length, 2, 'asked again at the very next call');
    t.stop();
  });

  it('revoke --agent A SCOPE takes only that tool; a grant given after the revocation stands', async () => {
    const t = setup([], [{ kind: 'allow_session_risks' }, { kind: 'allow_session_risks' }]);
    assert.equal((await t.write()).allowed, true);
    const other = await pepeCli(home.dir, ['grants', 'revoke', '--agent', 'a', 'bash'], {}, ws());
    assert.equal(other.exitCode, 0, other.stderr);
    assert.match(other.stdout, /nothing to revoke for a in bash/);
    assert.equal((await t.write()).allowed, true);
    assert.equal(t.prompter.asked.length, 1, 'a revocation for bash leaves write_file alone');
    const r = await pepeCli(home.dir, ['grants', 'revoke', '--agent', 'a', 'write_file'], {}, ws());
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /revoked 1/);
    assert.equal((await t.write()).allowed, true, 'asked again, and allowed again');
    assert.equal(t.prompter.asked.length, 2);
    // The new grant was given after the revocation line: it stands.
    assert.equal((await t.write()).allowed, true);
    assert.equal(t.prompter.asked.length, 2);
    t.stop();
  });

  it('the bypass and a task grant are listed, and clear --agent takes them and the saved entries away', async () => {
    const t = setup(['bash:none'], [{ kind: 'allow_task' }, { kind: 'deny' }]);
    assert.equal((await t.write()).allowed, true);
    const before = await listed('a');
    assert.deepEqual(before.map((e) => e.kind).sort(), ['saved', 'task']);
    assert.match(before.find((e) => e.kind === 'task')!.covers, /for the rest of the running task/);
    const r = await pepeCli(home.dir, ['grants', 'clear', '--agent', 'a'], {}, ws());
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /revoked 2/);
    assert.equal((await t.write()).allowed, false);
    assert.equal(t.run.taskGrants?.length, 0);
    assert.deepEqual(await listed('a'), []);
    t.stop();
  });

  it('the bypass: listed in words, revoked by clear from another process', async () => {
    const t = setup([], [{ kind: 'bypass_session' }, { kind: 'deny' }]);
    assert.equal((await t.write()).allowed, true);
    assert.equal((await t.write()).allowed && 'bypass', 'bypass');
    const bypass = (await listed()).find((e) => e.kind === 'bypass');
    assert.ok(bypass);
    assert.match(bypass.covers, /every call of a runs without asking/);
    assert.equal((await pepeCli(home.dir, ['grants', 'clear'], {}, ws())).exitCode, 0);
    assert.equal((await t.write()).allowed, false);
    assert.equal(t.prompter.asked.length, 2);
    t.stop();
  });

  it('an unreadable revocations file takes every grant held in memory away (fail closed)', async () => {
    const t = setup([], [{ kind: 'allow_session_risks' }, { kind: 'deny' }]);
    assert.equal((await t.write()).allowed, true);
    mkdirSync(join(home.dir, 'grants', 'revocations.jsonl'), { recursive: true });
    assert.equal((await t.write()).allowed, false);
    assert.equal(t.prompter.asked.length, 2);
    t.stop();
  });

  it('a config.json that no longer parses withholds saved entries (fail closed)', async () => {
    const t = setup(['write_file:write'], [{ kind: 'deny' }]);
    assert.equal((await t.write()).allowed, true);
    writeFileSync(home.config, '{ "agents": ');
    assert.equal((await t.write()).allowed, false);
    t.stop();
  });

  it('a grant of agent b is not revoked by revoking agent a', async () => {
    const t = setup([], [{ kind: 'allow_session_risks' }]);
    assert.equal((await t.write('b')).allowed, true);
    assert.equal((await pepeCli(home.dir, ['grants', 'clear', '--agent', 'a'], {}, ws())).exitCode, 0);
    assert.equal((await t.write('b')).allowed, true);
    assert.equal(t.prompter.asked.length, 1);
    t.stop();
  });
});
