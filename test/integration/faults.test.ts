/**
 * The fault-injection matrix in the extension host (issue 8): every guarded slot × every kind of
 * misbehaviour, through the `pepe.slot.test` command, exactly as the runtime calls the slot. The
 * built-in answers (the sandbox refuses), the reason is recorded, and the host's own timers keep
 * ticking: a plugin running on this thread would freeze it for good in the looping cases.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXPECTED_REASONS, GUARDED_SLOTS, MISBEHAVIOURS, misbehavingPlugin, pluginName } from '../fixtures/plugins/misbehaving';
import { api, pepeHome } from './helpers';
import { testLog } from './log';

const DEADLINE_MS = 800;

describe('fault injection in the extension host: every slot × every misbehaviour', function () {
  this.timeout(300_000);
  let server: Server;
  const files: string[] = [];

  before(async () => {
    // A local stand-in for the web search API, so the built-in can answer without a network.
    server = createServer((_req, res) => res.end(JSON.stringify({ Heading: 'x', AbstractText: 'local answer' })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const pepe = await (await api()).testing.host.get();
    await pepe['store'].update((raw) => {
      raw.slot_deadlines_ms = Object.fromEntries(GUARDED_SLOTS.map((s) => [s, DEADLINE_MS]));
      raw.web_search = { endpoint };
      const agents = (raw.agents ??= {}) as Record<string, unknown>;
      agents.faulty = { model: 'mock' };
    });
    mkdirSync(path.join(pepeHome(), 'plugins'), { recursive: true });
    await pepe.reload();
  });

  after(async () => {
    server.close();
    for (const f of files) rmSync(f, { force: true });
    const pepe = await (await api()).testing.host.get();
    await pepe['store'].update((raw) => {
      delete raw.slot_deadlines_ms;
      delete raw.web_search;
      delete (raw.agents as Record<string, unknown>).faulty;
    });
    await pepe.reload();
  });

  for (const slot of GUARDED_SLOTS) {
    for (const behaviour of MISBEHAVIOURS) {
      it(`${slot} / ${behaviour}`, async () => {
        const pepe = await (await api()).testing.host.get();
        const name = pluginName(slot, behaviour);
        // One misbehaving plugin installed at a time, as a person would have it.
        for (const f of files.splice(0)) rmSync(f, { force: true });
        const file = path.join(pepeHome(), 'plugins', `${name}.mjs`);
        writeFileSync(file, misbehavingPlugin(slot, behaviour));
        files.push(file);
        await pepe.pluginList();
        await pepe['store'].update((raw) => {
          ((raw.agents as Record<string, Record<string, unknown>>).faulty!).slots = { [slot]: name };
        });
        await pepe.reload();
        let last = performance.now();
        let maxGap = 0;
        const ticker = setInterval(() => {
          const now = performance.now();
          maxGap = Math.max(maxGap, now - last);
          last = now;
        }, 10);
        const started = performance.now();
        const input = slot === 'sandbox' ? { command: ['echo', 'ran'] } : slot === 'memory' || slot === 'web_search' ? { query: 'pepe' } : {};
        const r = (await vscode.commands.executeCommand('pepe.slot.test', { slot, agent: 'faulty', ...input })) as {
          occupant: string;
          answeredBy: string;
          fallback: { reason: string; detail: string } | null;
          refused?: string;
        };
        const elapsed = performance.now() - started;
        clearInterval(ticker);
        assert.equal(r.occupant, name, JSON.stringify(r));
        assert.ok(r.fallback && EXPECTED_REASONS[behaviour].includes(r.fallback.reason), `reason: ${JSON.stringify(r.fallback)}`);
        if (slot === 'sandbox') assert.match(r.refused ?? '', /refused/, JSON.stringify(r));
        else assert.equal(r.answeredBy, 'builtin', JSON.stringify(r));
        const logged = pepe['log'].readAll().filter((e) => e.kind === 'slot_fallback' && e.occupant === name);
        assert.ok(logged.length >= 1, `no slot_fallback record for ${name} in the log`);
        // A plugin on this thread would have blocked it for the whole deadline, or for ever.
        assert.ok(maxGap < DEADLINE_MS * 2, `the extension host's timers stalled for ${maxGap.toFixed(0)} ms`);
        testLog(`${slot} / ${behaviour}: ${slot === 'sandbox' ? 'refused' : 'built-in answered'} (${r.fallback.reason}) in ${elapsed.toFixed(0)} ms; max timer gap ${maxGap.toFixed(0)} ms`);
      });
    }
  }
});
