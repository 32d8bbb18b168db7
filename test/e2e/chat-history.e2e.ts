/**
 * Acceptance (issue 25) in the real workbench: the chat's history finds a conversation by what was
 * said in it (not only its title), shows it under its agent and day, and opening it resumes it:
 * the next message goes on in the same session.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { domText, onTestFailure, openWorkbench, runCommand, waitFor, waitForWorkbench, type Workbench } from '../vscode/harness';
import { chatFrame } from './chat-harness';
import { makePepeHome } from './pepe-ui';

/** Session files of an agent → their user messages. */
function sessionsOnDisk(home: string, agent: string): Map<string, string[]> {
  const dir = path.join(home, 'sessions', agent);
  const out = new Map<string, string[]>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
    const users = readFileSync(path.join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { message?: { role?: string; content?: string } })
      .flatMap((r) => (r.message?.role === 'user' ? [String(r.message.content)] : []));
    out.set(f, users);
  }
  return out;
}

describe('e2e: the chat history', function () {
  let wb: Workbench | undefined;
  let home: string;
  let workspace: string;

  before(async function () {
    home = makePepeHome({});
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ agents: { echo: { model: 'mock' } } }, null, 2));
    workspace = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-history-ws-'));
    wb = await openWorkbench({ env: { PEPE_HOME: home }, workspace });
    await waitForWorkbench(wb.page);
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  it('a conversation is found by search (in what was said) and resumed', async function () {
    const page = wb!.page;
    await runCommand(page, 'Pepe: Open Chat', 120_000);
    const chat = chatFrame(page);
    const input = chat.locator('#input');
    await input.waitFor({ state: 'visible', timeout: 120_000 });
    const idle = () => chat.locator('body[data-busy="false"]').waitFor({ state: 'attached', timeout: 60_000 });
    const say = async (text: string, answers: number) => {
      // Enter while a turn still runs sends nothing: wait for the last one to end.
      await idle();
      await input.fill(text);
      await input.press('Enter');
      await waitFor(async () => ((await chat.locator('.turn .msg.assistant').count()) >= answers ? true : undefined), { timeoutMs: 60_000, what: `the answer to "${text}"` });
    };
    // The word searched for is in the second message only, not in the title (the first message).
    await say('planning the garden', 1);
    await say('the pelican nests by the pond', 2);
    await chat.locator('[data-action="new-session"]').click();
    await waitFor(async () => ((await chat.locator('.turn .msg.assistant').count()) === 0 ? true : undefined), { timeoutMs: 30_000, what: 'a fresh session' });
    await say('something else entirely', 1);

    await chat.locator('[data-action="toggle-history"]').click();
    const items = chat.locator('#history .history-item');
    await waitFor(async () => ((await items.count()) === 2 ? true : undefined), { timeoutMs: 30_000, what: 'two sessions in the history' });
    assert.equal(domText(await chat.locator('#history .history-group').first().innerText()).trim(), 'echo · Today');
    await chat.locator('#history .history-search').fill('pelican pond');
    await waitFor(async () => ((await items.count()) === 1 ? true : undefined), { timeoutMs: 30_000, what: 'one session matching' });
    assert.equal(domText(await items.first().locator('.history-title').innerText()).trim(), 'planning the garden');

    await items.first().locator('[data-action="open-session"]').click();
    await waitFor(async () => (domText(await chat.locator('#transcript').innerText()).includes('the pelican nests by the pond') ? true : undefined), { timeoutMs: 30_000, what: 'the conversation reopened' });
    await say('and the herons?', 3);
    const onDisk = [...sessionsOnDisk(home, 'echo').values()];
    assert.equal(onDisk.length, 2, 'no new session was started');
    assert.ok(onDisk.some((users) => users.join('|') === 'planning the garden|the pelican nests by the pond|and the herons?'), JSON.stringify(onDisk));
  });
});
