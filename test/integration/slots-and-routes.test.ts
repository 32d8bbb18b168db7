/**
 * Commands with arguments (no pickers) and the tree data they change: slots set/cleared, agents,
 * routes (directed), config.json written by the extension; and a `pepe slot set` from the CLI
 * picked up by the trees without a reload.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, cli, extensionPath, readConfig, slotsTree, waitUntil, type Api } from './helpers';

const SLOTS = ['memory', 'web_search', 'sandbox', 'model_select', 'heartbeat_interval', 'compaction', 'harness'];

describe('slots and routes through commands', function () {
  let a: Api;
  before(async () => {
    a = await api();
    const plugin = path.join(extensionPath(), 'docs', 'examples', 'plugins', 'example_memory.mjs');
    const info = (await vscode.commands.executeCommand('pepe.plugin.install', { path: plugin })) as { name: string; slot: string };
    assert.equal(info.name, 'example_memory');
    assert.equal(info.slot, 'memory');
  });

  it('the Slots tree lists the seven slots, each answered by the built-in', async () => {
    const tree = await slotsTree(a);
    assert.deepEqual(Object.keys(tree), SLOTS);
    for (const slot of SLOTS) assert.equal(tree[slot], 'builtin', `${slot}: ${tree[slot]}`);
  });

  it('pepe.slot.set / pepe.slot.clear with arguments write config.json and update the tree', async () => {
    await vscode.commands.executeCommand('pepe.slot.set', { slot: 'memory', plugin: 'example_memory', scope: 'install' });
    assert.equal(readConfig().slots?.memory, 'example_memory');
    assert.equal((await slotsTree(a)).memory, 'example_memory');
    const cleared = (await vscode.commands.executeCommand('pepe.slot.clear', { slot: 'memory', scope: 'install' })) as { previous: string };
    assert.equal(cleared.previous, 'example_memory');
    assert.equal(readConfig().slots?.memory, undefined);
    assert.equal((await slotsTree(a)).memory, 'builtin');
  });

  it('an agent override shows as a child of its slot', async () => {
    await vscode.commands.executeCommand('pepe.agent.add', { name: 'support', model: 'mock' });
    await vscode.commands.executeCommand('pepe.slot.set', { slot: 'memory', plugin: 'example_memory', agent: 'support' });
    assert.equal(readConfig().agents.support.slots.memory, 'example_memory');
    const top = await a.testing.trees.slots.getChildren();
    const memory = top.find((n) => n.kind === 'slot' && n.slot === 'memory')!;
    const children = await a.testing.trees.slots.getChildren(memory);
    assert.equal(children.length, 1);
    const item = a.testing.trees.slots.getTreeItem(children[0]!);
    assert.equal(item.label, 'agent support');
    assert.equal(item.description, 'example_memory');
    await vscode.commands.executeCommand('pepe.agent.remove', { agent: 'support', force: true });
  });

  it('a fallback re-renders the Slots tree by itself, once per burst (no refresh, no config change)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pepe-broken-'));
    const file = path.join(dir, 'broken_memory.mjs');
    writeFileSync(file, "export function name() { return 'broken_memory'; }\nexport function slot() { return 'memory'; }\nexport function search() { throw new Error('broken on purpose'); }\n");
    await vscode.commands.executeCommand('pepe.plugin.install', { path: file });
    await vscode.commands.executeCommand('pepe.agent.add', { name: 'flaky', model: 'mock' });
    await vscode.commands.executeCommand('pepe.slot.set', { slot: 'memory', plugin: 'broken_memory', agent: 'flaky' });
    await new Promise((r) => setTimeout(r, 1500)); // the config watcher's own refreshes settle first
    const fallbacks = async () => {
      const top = await a.testing.trees.slots.getChildren();
      const memory = top.find((n) => n.kind === 'slot' && n.slot === 'memory')!;
      const child = (await a.testing.trees.slots.getChildren(memory)).find((n) => n.kind === 'slot' && n.agent === 'flaky')!;
      return Number(/(\d+) fallbacks?/.exec(String(a.testing.trees.slots.getTreeItem(child).description))?.[1] ?? 0);
    };
    const before = await fallbacks();
    let renders = 0;
    const sub = a.testing.trees.slots.onDidChangeTreeData(() => renders++);
    try {
      await Promise.all([1, 2, 3].map(() => vscode.commands.executeCommand('pepe.slot.test', { slot: 'memory', agent: 'flaky', query: 'x' })));
      await waitUntil(() => renders > 0, 'the Slots tree to re-render after the fallbacks', 5000);
      await new Promise((r) => setTimeout(r, 600));
      assert.ok(renders >= 1 && renders <= 2, `the tree re-rendered ${renders} times for one burst of 3 fallbacks`);
      assert.equal(await fallbacks(), before + 3);
    } finally {
      sub.dispose();
      await vscode.commands.executeCommand('pepe.agent.remove', { agent: 'flaky', force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bad arguments are refused with a message naming the field', async () => {
    await assert.rejects(() => Promise.resolve(vscode.commands.executeCommand('pepe.slot.set', { slot: 'memroy', plugin: 'x' })), /slot/);
    await assert.rejects(() => Promise.resolve(vscode.commands.executeCommand('pepe.slot.set', { slot: 'sandbox', plugin: 'example_memory', scope: 'install' })), /claims slot "memory", not "sandbox"/);
  });

  it('routes added from commands are directed; removing one updates config.json', async () => {
    for (const name of ['triage', 'billing', 'refunds']) await vscode.commands.executeCommand('pepe.agent.add', { name, model: 'mock' });
    await vscode.commands.executeCommand('pepe.route.add', { from: 'triage', to: 'billing' });
    await vscode.commands.executeCommand('pepe.route.add', { from: 'triage', to: 'refunds' });
    assert.deepEqual(readConfig().agents.triage.can_message, ['billing', 'refunds']);
    const routes = a.testing.trees.routes;
    const agents = await routes.getChildren();
    const triage = agents.find((n) => n.kind === 'routeAgent' && n.agent === 'triage')!;
    assert.deepEqual((await routes.getChildren(triage)).map((n) => (n.kind === 'route' ? `${n.from}→${n.to}` : n.kind)), ['triage→billing', 'triage→refunds']);
    const billing = agents.find((n) => n.kind === 'routeAgent' && n.agent === 'billing')!;
    assert.deepEqual(await routes.getChildren(billing), [], 'a reverse route appeared');
    await vscode.commands.executeCommand('pepe.route.remove', { from: 'triage', to: 'refunds' });
    assert.deepEqual(readConfig().agents.triage.can_message, ['billing']);
    assert.equal(readConfig().agents.billing.can_message, undefined);
  });

  it('a `pepe slot set` run by the CLI shows in the Slots tree without a reload', async () => {
    let changes = 0;
    const sub = a.testing.host.onDidChange(() => changes++);
    try {
      const r = await cli('slot', 'set', 'memory', 'example_memory');
      assert.equal(r.code, 0, r.stderr);
      await waitUntil(async () => (await slotsTree(a)).memory === 'example_memory', 'the tree to show example_memory after the CLI wrote config.json');
      assert.ok(changes > 0, 'the host did not report the change');
      const r2 = await cli('slot', 'clear', 'memory');
      assert.equal(r2.code, 0, r2.stderr);
      await waitUntil(async () => (await slotsTree(a)).memory === 'builtin', 'the tree to return to builtin');
    } finally {
      sub.dispose();
    }
  });
});
