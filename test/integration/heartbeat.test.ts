/**
 * Heartbeats run in the extension host: an agent given a heartbeat in config.json gets its first
 * pulse as soon as the window sees the change, with nobody at the keyboard, and the answer lands
 * as a session of its own in that agent's chat history.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { api, pepeHome, readConfig, waitUntil, type Api } from './helpers';

describe('heartbeat in the extension host', function () {
  this.timeout(60_000);
  let a: Api;
  const agent = 'pulse';

  before(async () => {
    a = await api();
    await a.testing.host.get();
  });

  after(() => {
    const config = readConfig();
    delete config.agents?.[agent];
    writeFileSync(path.join(pepeHome(), 'config.json'), JSON.stringify(config, null, 2));
  });

  it('fires a due pulse after config.json gains a heartbeat, and the answer becomes a session', async () => {
    const pepe = await a.testing.host.get();
    assert.equal(pepe.sessionList(agent).length, 0);
    const config = readConfig();
    config.agents = { ...(config.agents ?? {}), [agent]: { model: 'mock', heartbeat: { every_minutes: 60, prompt: 'pulse check from the heartbeat test' } } };
    writeFileSync(path.join(pepeHome(), 'config.json'), JSON.stringify(config, null, 2));

    // The session's file appears with its first message; its title is written just after.
    const sessions = await waitUntil(() => {
      const list = pepe.sessionList(agent);
      return list.length && list[0]!.title ? list : undefined;
    }, 'a titled heartbeat session for the new agent');
    assert.equal(sessions.length, 1);
    assert.match(sessions[0]!.title ?? '', /^heartbeat /);
    const transcript = pepe.sessionLoad(agent, sessions[0]!.id).messages.map((m) => m.content).join('\n');
    assert.match(transcript, /pulse check from the heartbeat test/);

    // The schedule now says the next pulse is an hour away: another look fires nothing.
    // The pulse is recorded once its turn has ended, which may be just after the session appears.
    const schedule = await waitUntil(() => {
      try {
        const s = JSON.parse(readFileSync(path.join(pepeHome(), 'heartbeat.json'), 'utf8')) as Record<string, string>;
        return s[agent] ? s : undefined;
      } catch {
        return undefined;
      }
    }, 'the pulse recorded in heartbeat.json');
    assert.ok(schedule[agent], 'the pulse was recorded in heartbeat.json');
    await a.testing.host.reload();
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(pepe.sessionList(agent).length, 1);
  });
});
