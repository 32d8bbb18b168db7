import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PermissionBarrier } from '../../../src/core/permissions/barrier.js';
import type { ToolCallCheck } from '../../../src/core/permissions/barrier-types.js';
import { newRunState } from '../../../src/core/permissions/run-state.js';
import { PERMISSION_PRESETS, PRESET_NAMES, presetOf, withPreset, type PresetName } from '../../../src/core/permissions/presets.js';
import { makeTempDir, removeDir } from '../permissions/helpers.js';

/**
 * Issue 25: each permission preset lets exactly what its words say run without asking. Every call
 * below goes through the real barrier with nobody present (so "runs" means unasked, and anything
 * else waits for a person) and the sandbox confining commands, except where it says otherwise.
 */
type Outcome = 'runs' | 'asked' | 'refused';

interface Probe {
  what: string;
  tool: string;
  args: unknown;
  /** Relative to the workspace, or absolute (outside it). */
  writes?: string;
  confined?: boolean;
  readOnlyHint?: boolean;
}

const PROBES: Probe[] = [
  { what: 'read a file inside the workspace', tool: 'read_file', args: { path: 'a.txt' } },
  { what: 'a command that carries no risk (ls)', tool: 'bash', args: { command: 'ls -la' } },
  { what: 'a command that deletes (rm)', tool: 'bash', args: { command: 'rm -f a.txt' } },
  { what: 'a command that uses the network (curl)', tool: 'bash', args: { command: 'curl https://example.com' } },
  { what: 'a program the barrier does not know (npm test)', tool: 'bash', args: { command: 'npm test' } },
  { what: 'write a file inside the workspace', tool: 'write_file', args: { path: 'b.txt', content: 'x' }, writes: 'b.txt' },
  { what: 'edit a file inside the workspace', tool: 'edit_file', args: { path: 'a.txt', old: 'a', new: 'b' }, writes: 'a.txt' },
  { what: 'write a file outside the workspace', tool: 'write_file', args: { path: '/tmp/outside-pepe.txt', content: 'x' }, writes: '/tmp/outside-pepe.txt' },
  { what: 'write a git hook (decides what runs later)', tool: 'write_file', args: { path: '.git/hooks/pre-commit', content: 'x' }, writes: '.git/hooks/pre-commit' },
  { what: 'an MCP tool', tool: 'mcp__srv__do', args: {} },
  { what: 'an MCP tool that says it only reads', tool: 'mcp__srv__look', args: {}, readOnlyHint: true },
  { what: 'a harmless command while the sandbox cannot confine', tool: 'bash', args: { command: 'ls' }, confined: false },
  { what: 'any command while the sandbox cannot confine', tool: 'bash', args: { command: 'npm test' }, confined: false },
  { what: 'a command that wrecks the machine', tool: 'bash', args: { command: 'rm -rf /' } },
];

/** What each preset's words promise, probe by probe (the order of PROBES). */
const EXPECTED: Record<PresetName, Outcome[]> = {
  ask: ['runs', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'refused'],
  'read-only': ['runs', 'runs', 'refused', 'refused', 'refused', 'refused', 'refused', 'refused', 'refused', 'refused', 'asked', 'asked', 'refused', 'refused'],
  harmless: ['runs', 'runs', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'refused'],
  sandbox: ['runs', 'runs', 'runs', 'runs', 'runs', 'runs', 'runs', 'asked', 'asked', 'asked', 'asked', 'asked', 'asked', 'refused'],
};

describe('permission presets: each lets exactly what it says run', () => {
  let ws: string;
  before(() => {
    ws = makeTempDir('pepe-preset-');
  });
  after(() => removeDir(ws));

  async function outcome(preset: PresetName, p: Probe): Promise<Outcome> {
    const agentConfig = withPreset({ model: 'mock' }, PERMISSION_PRESETS[preset]);
    const barrier = new PermissionBarrier({ prompter: null, persistAlwaysAllow: async () => undefined });
    const run = newRunState();
    if (agentConfig.plan_mode) run.planMode = true;
    const real = p.writes === undefined ? undefined : p.writes.startsWith('/') ? p.writes : join(ws, p.writes);
    const paths = real ? [{ real, inside: !p.writes!.startsWith('/'), access: 'write' as const, inPepeHome: false }] : p.tool === 'read_file' ? [{ real: join(ws, 'a.txt'), inside: true, access: 'read' as const, inPepeHome: false }] : [];
    const check: ToolCallCheck = { agent: 'a', agentConfig, tool: p.tool, args: p.args, cwd: ws, run, sandbox: { confined: p.confined ?? true }, facts: { paths, ...(p.readOnlyHint ? { readOnlyHint: true } : {}) } as never };
    const o = await barrier.check(check);
    if (o.allowed) return 'runs';
    return o.by === 'no_person' ? 'asked' : 'refused';
  }

  for (const name of PRESET_NAMES) {
    it(`${name}: ${PERMISSION_PRESETS[name].label}`, async () => {
      const got: string[] = [];
      const want: string[] = [];
      for (const [i, p] of PROBES.entries()) {
        got.push(`${p.what}: ${await outcome(name, p)}`);
        want.push(`${p.what}: ${EXPECTED[name][i]}`);
      }
      assert.deepEqual(got, want);
    });
  }

  it('a preset replaces the saved approvals and plan mode, keeps the rest, and is recognised again', () => {
    const before = { model: 'm', tools: ['bash'], auto_approve: ['*'] as const, plan_mode: true };
    const after = withPreset({ ...before, auto_approve: '*' }, PERMISSION_PRESETS.harmless);
    assert.deepEqual(after, { model: 'm', tools: ['bash'], auto_approve: ['bash:none'] });
    for (const name of PRESET_NAMES) assert.equal(presetOf(withPreset({}, PERMISSION_PRESETS[name])), name);
    assert.equal(presetOf({ auto_approve: ['bash:none', 'write_file'] }), null);
    assert.equal(presetOf({}), 'ask');
  });
});
