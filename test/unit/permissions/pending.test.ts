import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../../src/core/errors.js';
import { PENDING_TTL_MS, PendingApprovals, type ParkInput } from '../../../src/core/permissions/pending.js';
import { call, harness, makeTempDir, removeDir } from './helpers.js';

const input = (over: Partial<ParkInput> = {}): ParkInput => ({
  agent: 'billing',
  chain: ['triage', 'billing'],
  tool: 'bash',
  args: { command: 'rm -rf build' },
  cwd: '/work/project',
  parkedBecause: 'no_person',
  ...over,
});

describe('PendingApprovals (spec 5.4)', () => {
  let dir: string;
  let clock: number;
  let store: PendingApprovals;
  let persisted: Array<[string, string]>;
  beforeEach(() => {
    dir = join(makeTempDir(), 'approvals');
    clock = Date.parse('2030-01-01T12:00:00Z');
    persisted = [];
    store = new PendingApprovals(dir, {
      now: () => new Date(clock),
      persistAlwaysAllow: async (agent, tool) => {
        persisted.push([agent, tool]);
      },
    });
  });
  afterEach(() => removeDir(join(dir, '..')));

  it('parks a call as one JSON file with a short id and a 30-minute expiry', async () => {
    const parked = await store.park(input({ sessionId: 's1' }));
    assert.match(parked.id, /^[0-9a-f]{8}$/);
    assert.equal(parked.status, 'pending');
    assert.deepEqual(readdirSync(dir), [`${parked.id}.json`]);
    const onDisk = JSON.parse(readFileSync(join(dir, `${parked.id}.json`), 'utf8'));
    assert.deepEqual(onDisk, {
      agent: 'billing',
      chain: ['triage', 'billing'],
      tool: 'bash',
      args: { command: 'rm -rf build' },
      cwd: '/work/project',
      parkedBecause: 'no_person',
      sessionId: 's1',
      id: parked.id,
      createdAt: '2030-01-01T12:00:00.000Z',
      expiresAt: '2030-01-01T12:30:00.000Z',
      status: 'pending',
    });
    assert.equal(PENDING_TTL_MS, 30 * 60 * 1000);
  });

  it('lists pending approvals, oldest first', async () => {
    const a = await store.park(input());
    clock += 1000;
    const b = await store.park(input({ tool: 'write_file', args: { path: 'x' } }));
    assert.deepEqual((await store.list()).map((p) => p.id), [a.id, b.id]);
    assert.deepEqual((await store.list({ agent: 'triage' })).map((p) => p.id), []);
  });

  it('approves: status, decision time, and "always" persisted through the callback', async () => {
    const parked = await store.park(input({ riskHints: [{ kind: 'network', fragment: 'curl x' }, { kind: 'write', fragment: '> f' }] }));
    const approved = await store.approve(parked.id, { always: true });
    assert.equal(approved.status, 'approved');
    assert.equal(approved.always, true);
    assert.equal(approved.decidedAt, '2030-01-01T12:00:00.000Z');
    // Scoped to the risks the person was shown, never the bare tool name.
    assert.deepEqual(persisted, [['billing', 'bash:network+write']]);
    assert.deepEqual(await store.list(), [], 'no longer pending');
    assert.deepEqual((await store.list({ includeResolved: true })).map((p) => p.status), ['approved']);
    await assert.rejects(store.approve(parked.id), (e: Error) => e instanceof UsageError && /already approved/.test(e.message));
    await assert.rejects(store.deny(parked.id), /already approved/);
  });

  it('approves without always by default', async () => {
    const parked = await store.park(input());
    const approved = await store.approve(parked.id);
    assert.equal(approved.always, false);
    assert.deepEqual(persisted, []);
  });

  it('denies with a reason', async () => {
    const parked = await store.park(input());
    const denied = await store.deny(parked.id, { reason: 'not today' });
    assert.equal(denied.status, 'denied');
    assert.equal(denied.reason, 'not today');
    assert.equal((await store.get(parked.id)).status, 'denied');
  });

  it('expires after 30 minutes; approving an expired one is a clear error', async () => {
    const parked = await store.park(input());
    clock += PENDING_TTL_MS - 1;
    assert.equal((await store.get(parked.id)).status, 'pending');
    clock += 1;
    assert.equal((await store.get(parked.id)).status, 'expired');
    assert.deepEqual(await store.list(), []);
    assert.deepEqual((await store.list({ includeExpired: true })).map((p) => [p.id, p.status]), [[parked.id, 'expired']]);
    await assert.rejects(store.approve(parked.id), (e: Error) => e instanceof UsageError && /expired at 2030-01-01T12:30:00.000Z/.test(e.message));
    await assert.rejects(store.deny(parked.id), /expired/);
  });

  describe('ids', () => {
    let ids: string[];
    beforeEach(() => {
      ids = ['abcd1234', 'abcd9999', '0f0f0f0f'];
      store = new PendingApprovals(dir, { newId: () => ids.shift()! });
    });

    it('accept a unique prefix, in any case', async () => {
      await store.park(input());
      await store.park(input());
      const third = await store.park(input());
      assert.equal((await store.get('0f')).id, third.id);
      assert.equal((await store.get('ABCD1')).id, 'abcd1234');
      assert.equal((await store.approve('abcd9')).id, 'abcd9999');
    });

    it('refuse an ambiguous prefix, naming the candidates', async () => {
      await store.park(input());
      await store.park(input());
      await assert.rejects(store.get('abcd'), (e: Error) => e instanceof UsageError && /matches 2 approvals \(abcd1234, abcd9999\)/.test(e.message));
    });

    it('refuse an unknown id and anything that is not hex', async () => {
      await store.park(input());
      await assert.rejects(store.get('ffff'), /no approval "ffff"; see: pepe approvals list/);
      await assert.rejects(store.get('../config'), /not an approval id/);
      await assert.rejects(store.get(''), /not an approval id/);
    });

    it('never reuse an id already on disk', async () => {
      ids = ['abcd1234', 'abcd1234', '77777777'];
      const first = await store.park(input());
      const second = await store.park(input({ id: first.id }));
      assert.equal(first.id, 'abcd1234');
      assert.equal(second.id, '77777777');
    });
  });

  it('hands approved calls to the runtime once (takeApproved)', async () => {
    const a = await store.park(input({ sessionId: 's1' }));
    const b = await store.park(input({ sessionId: 's2' }));
    const other = await store.park(input({ agent: 'triage', chain: ['triage'] }));
    const pendingOne = await store.park(input());
    await store.approve(a.id);
    await store.approve(b.id);
    await store.approve(other.id);
    assert.deepEqual((await store.takeApproved('billing', { sessionId: 's1' })).map((p) => p.id), [a.id]);
    const rest = await store.takeApproved('billing');
    assert.deepEqual(rest.map((p) => p.id), [b.id]);
    assert.deepEqual(rest[0]!.args, { command: 'rm -rf build' });
    assert.ok(rest[0]!.deliveredAt, "rest[0]!.deliveredAt");
    assert.deepEqual(await store.takeApproved('billing'), [], 'each approved call is taken once');
    assert.equal((await store.get(pendingOne.id)).status, 'pending');
  });

  it('never hands the same call to two concurrent takers', async () => {
    const parked = await store.park(input());
    await store.approve(parked.id);
    const [x, y, z] = await Promise.all([store.takeApproved('billing'), store.takeApproved('billing'), store.takeApproved('billing')]);
    assert.equal(x.length + y.length + z.length, 1);
  });

  it('takeResolved also reports denials, so the model can hear about them', async () => {
    const a = await store.park(input());
    const b = await store.park(input());
    await store.approve(a.id);
    await store.deny(b.id, { reason: 'no' });
    const got = await store.takeResolved('billing');
    assert.deepEqual(got.map((p) => p.status).sort(), ['approved', 'denied']);
    assert.deepEqual(await store.takeResolved('billing'), []);
  });

  it('skips a corrupt file when listing', async () => {
    const parked = await store.park(input());
    writeFileSync(join(dir, '00000000.json'), '{ torn');
    assert.deepEqual((await store.list()).map((p) => p.id), [parked.id]);
  });

  it('lists nothing when the folder does not exist yet', async () => {
    assert.deepEqual(await new PendingApprovals(join(dir, 'nope')).list(), []);
  });
});

describe('barrier + pending: refused with nobody present, approved later', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => removeDir(dir));

  it('parks the exact call, which a person approves and the runtime takes', async () => {
    const h = harness(dir, { sessionId: 'sess-7' });
    const outcome = await h.barrier.check(call('write_file', { path: 'notes.md', content: 'hi' }));
    assert.ok(!outcome.allowed && outcome.by === 'no_person' && outcome.pendingId, "!outcome.allowed && outcome.by === 'no_person' && outcome.pendingId");
    const listed = await h.pending.list();
    assert.equal(listed.length, 1);
    assert.equal(listed[0]!.summary, 'Write the file notes.md (2 characters), relative to /work/project');
    await h.pending.approve(outcome.pendingId.slice(0, 4));
    const [taken] = await h.pending.takeApproved('billing', { sessionId: 'sess-7' });
    assert.ok(taken, "taken");
    assert.equal(taken.tool, 'write_file');
    assert.deepEqual(taken.args, { path: 'notes.md', content: 'hi' });
    assert.deepEqual(taken.chain, ['triage', 'billing']);
  });
});
