/**
 * Spec 3.3 isolation: a plugin stuck in a synchronous loop runs in its own worker thread, so the
 * extension host keeps answering commands while it spins, and the guard answers with the built-in.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, fixture } from './helpers';
import { testLog } from './log';

describe('a plugin stuck in for(;;){} never freezes the extension host', function () {
  this.timeout(60_000);

  it('a command answers while the plugin spins; the call falls back to the built-in at the deadline', async () => {
    await api();
    await vscode.commands.executeCommand('pepe.plugin.install', { path: fixture('spin_memory.mjs') });
    await vscode.commands.executeCommand('pepe.agent.add', { name: 'spinner', model: 'mock' });
    await vscode.commands.executeCommand('pepe.slot.set', { slot: 'memory', plugin: 'spin_memory', agent: 'spinner' });

    const started = Date.now();
    let settled = false;
    const stuck = Promise.resolve(vscode.commands.executeCommand('pepe.slot.test', { slot: 'memory', agent: 'spinner', query: 'anything' })).finally(() => (settled = true)) as Promise<{
      answeredBy: string;
      fallback: { reason: string } | null;
    }>;
    // Give the worker time to enter the loop, measuring timer lag on the host meanwhile.
    const lag: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await new Promise((r) => setTimeout(r, 100));
      lag.push(performance.now() - t - 100);
    }
    const t0 = performance.now();
    const list = (await vscode.commands.executeCommand('pepe.slot.list', { agent: 'spinner' })) as { slot: string; occupant: string }[];
    const answerMs = performance.now() - t0;
    assert.equal(settled, false, 'the stuck call already returned: the test did not overlap it');
    assert.equal(list.find((s) => s.slot === 'memory')?.occupant, 'spin_memory');
    assert.ok(answerMs < 2000, `pepe.slot.list took ${answerMs.toFixed(0)} ms while the plugin spun`);
    assert.ok(Math.max(...lag) < 500, `timer lag ${Math.max(...lag).toFixed(0)} ms`);
    testLog(`while spin_memory spun: pepe.slot.list answered in ${answerMs.toFixed(1)} ms; max timer lag ${Math.max(...lag).toFixed(1)} ms`);

    const r = await stuck;
    assert.equal(r.answeredBy, 'builtin');
    assert.equal(r.fallback?.reason, 'timeout');
    testLog(`the stuck call fell back to the built-in after ${Date.now() - started} ms`);
    await vscode.commands.executeCommand('pepe.agent.remove', { agent: 'spinner', force: true });
  });
});
