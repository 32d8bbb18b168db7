import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { script } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

/** Hosts ask the core who started a session instead of matching titles (issue 11). */
describe('session origin', function () {
  this.timeout(30_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('user, routed and heartbeat sessions record their origin; the list filters on it', async () => {
    const triage = script(home, 'triage', [{ tool_calls: [{ name: 'send_to_agent', arguments: { to: 'billing', message: 'refund?' } }] }, { text: 'done' }]);
    home.writeConfig({
      agents: { triage: { model: triage, can_message: ['billing'] }, billing: { model: 'mock', heartbeat: { every_minutes: 1, prompt: 'anything?' } } },
      routes: [{ from: 'triage', to: 'billing' }],
    });
    const pepe = await home.pepe({ workspace: home.dir });
    const top = await pepe.run({ agent: 'triage', text: 'hi' });
    assert.equal(top.status, 'ok', top.error);
    const [userSession] = pepe.sessionList('triage');
    assert.equal(userSession!.origin, 'user');
    const routed = pepe.sessionList('billing', { origins: ['routed'] });
    assert.equal(routed.length, 1, 'the consultation is a routed session');
    await pepe.heartbeatRunDue(new Date());
    const beats = pepe.sessionList('billing', { origins: ['heartbeat'] });
    assert.equal(beats.length, 1, 'the pulse answered (not HEARTBEAT_OK), so its session stays');
    assert.deepEqual(pepe.sessionList('billing', { origins: ['user'] }), [], 'neither shows in a chat history of user sessions');
  });

  it('an agent core child run is a child session', async () => {
    const core = join(home.dir, 'cores/p');
    const dir = join(core, 'agent/input/base_input');
    mkdirSync(dir, { recursive: true });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'module.ts'), "export async function process(ctx: any) {\n  const r = await ctx.agents.run('child', 'q', { tools: 'none' });\n  ctx.input.addContext(ctx.input.rawText + r.content, { role: 'user' });\n}\n");
    writeFileSync(join(dir, 'slot.yaml'), 'entrypoint: module:process\nfailure_policy: hard\ncapabilities: ["agents.run:child"]\n');
    mkdirSync(join(core, 'agent/output/base_output'), { recursive: true });
    writeFileSync(join(core, 'agent/output/base_output/module.ts'), 'export async function process(ctx: any) {\n  ctx.output.sendText(ctx.output.responseText);\n}\n');
    writeFileSync(join(core, 'agent/output/base_output/slot.yaml'), 'entrypoint: module:process\nfailure_policy: hard\n');
    writeFileSync(join(core, 'agent/pipelines.yaml'), 'schema_version: 1\nbootstrap: { serial: [] }\ninput: { serial: [base_input], parallel: [] }\noutput: { serial: [base_output], parallel: [] }\n');
    home.writeConfig({ agents: { parent: { model: 'mock', core }, child: { model: 'mock' } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const r = await pepe.run({ agent: 'parent', text: 'hi' });
    assert.equal(r.status, 'ok', r.error);
    assert.deepEqual(pepe.sessionList('child').map((s) => s.origin), ['child']);
  });

  it('sessions written before origins were recorded are known by their titles', async () => {
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const dir = join(home.dir, 'sessions', 'a');
    mkdirSync(dir, { recursive: true });
    const old = (id: string, title?: string) =>
      appendFileSync(join(dir, `${id}.jsonl`), JSON.stringify({ type: 'session', id, agent: 'a', createdAt: '2026-01-01T00:00:00.000Z', ...(title ? { title } : {}) }) + '\n');
    old('old-user');
    old('old-routed', 'routed from triage');
    old('old-beat', 'heartbeat 2026-01-01 09:00');
    const byId = Object.fromEntries(pepe.sessionList('a').map((s) => [s.id, s.origin]));
    assert.deepEqual(byId, { 'old-user': 'user', 'old-routed': 'routed', 'old-beat': 'heartbeat' });
  });
});
