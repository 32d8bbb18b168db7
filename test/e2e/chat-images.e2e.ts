/**
 * Acceptance (issue 25) in the real workbench: a picture pasted into the chat shows as a
 * thumbnail with a remove button, goes with the message and reaches a local OpenAI-compatible
 * server as an image part; a file that only claims to be a picture is refused in the page.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { domText, onTestFailure, openWorkbench, runCommand, waitFor, waitForWorkbench, type Workbench } from '../vscode/harness';
import { fixture, sse, startServer, type TestServer } from '../unit/models/sse-server';
import { chatFrame, chatFrameHandle } from './chat-harness';
import { makePepeHome } from './pepe-ui';

/** A real 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Pastes files into the message input as the clipboard hands them to the page. */
async function paste(frame: Frame, files: { name: string; type: string; base64: string }[]): Promise<void> {
  await frame.evaluate((list) => {
    const data = new DataTransfer();
    for (const f of list) data.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    document.querySelector('#input')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, files);
}

describe('e2e: a picture pasted into the chat', function () {
  let wb: Workbench | undefined;
  let home: string;
  let workspace: string;
  let server: TestServer;

  before(async function () {
    server = await startServer(() => sse([fixture('openai-text.sse')]));
    workspace = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-img-ws-'));
    home = makePepeHome({});
    const config = {
      models: { eyes: { provider: 'openai-compatible', model: 'vision-model', base_url: server.baseUrl, images: true } },
      agents: { looker: { model: 'eyes' } },
    };
    writeFileSync(path.join(home, 'config.json'), JSON.stringify(config, null, 2));
    wb = await openWorkbench({ env: { PEPE_HOME: home }, workspace });
    await waitForWorkbench(wb.page);
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
    await server?.close();
    for (const dir of [home, workspace]) rmSync(dir, { recursive: true, force: true });
  });

  it('a pasted image reaches the local test server as an image part; remove takes one back; a fake picture is refused', async function () {
    const page = wb!.page;
    // The machine may be busy: the extension can take a while to register its commands.
    await runCommand(page, 'Pepe: Open Chat', 120_000);
    const chat = chatFrame(page);
    const input = chat.locator('#input');
    await input.waitFor({ state: 'visible', timeout: 60_000 });
    await waitFor(async () => ((await input.getAttribute('placeholder'))?.includes('looker') ? true : undefined), { timeoutMs: 30_000, what: 'the chat panel for looker' });
    const frame = await chatFrameHandle(page);

    // The attack first: text that says it is a PNG gets no thumbnail, and the page says why.
    await paste(frame, [{ name: 'evil.png', type: 'image/png', base64: Buffer.from('<svg onload="alert(1)"/>').toString('base64') }]);
    const note = chat.locator('.composer .images .image-note');
    await note.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(domText(await note.innerText()), /evil\.png: not a PNG, JPEG, GIF or WebP picture/);
    const thumbs = chat.locator('.composer .images .image-chip');
    assert.equal(await thumbs.count(), 0);

    // Two pictures pasted, one removed again.
    await paste(frame, [{ name: 'first.png', type: 'image/png', base64: PNG_BASE64 }, { name: 'second.png', type: 'image/png', base64: PNG_BASE64 }]);
    await waitFor(async () => ((await thumbs.count()) === 2 ? true : undefined), { timeoutMs: 10_000, what: 'two thumbnails' });
    assert.equal(await thumbs.first().locator('img').getAttribute('alt'), 'first.png');
    await chat.locator('.composer .images button[aria-label="Remove second.png"]').click();
    await waitFor(async () => ((await thumbs.count()) === 1 ? true : undefined), { timeoutMs: 10_000, what: 'one thumbnail left' });

    await input.fill('what is in this picture?');
    await input.press('Enter');
    await waitFor(() => (server.requests.length >= 1 ? true : undefined), { timeoutMs: 60_000, what: 'the request at the local server' });
    const user = (server.requests[0]!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'user').at(-1)!;
    assert.deepEqual(user.content, [
      { type: 'text', text: 'what is in this picture?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
    ]);
    // The answer streams back; the sent message names its picture; the composer is empty again.
    const answer = chat.locator('.turn .msg.assistant').last();
    await waitFor(async () => (domText(await answer.innerText().catch(() => '')).includes('mundo') ? true : undefined), { timeoutMs: 60_000, what: 'the answer' });
    await chat.locator('.msg.user .images-sent .chip', { hasText: 'first.png' }).waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await thumbs.count(), 0);
  });
});
