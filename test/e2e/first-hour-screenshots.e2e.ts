/**
 * The first-hour pictures for docs/screenshots, in light, dark and high-contrast themes: the
 * first-run sidebar, the walkthrough, the model setup form (its list from a local server, a
 * passed Test) and an approval modal. One workbench per theme (the
 * theme is a start-up setting, so nothing but the theme differs). Runs only when updating the
 * pictures (PEPE_UPDATE_SCREENSHOTS=1), since it costs three workbenches; each picture still
 * checks that the screen it shows is there.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startServer, type RecordedRequest, type Reply, type TestServer } from '../unit/models/sse-server';
import { domText, onTestFailure, openViewContainer, openWorkbench, runCommand, sleep, waitFor, waitForDialog, waitForWorkbench, type Workbench } from '../vscode/harness';
import { chatFrame } from './chat-harness';
import { docScreenshot, formFrame, waitForTreeRow } from './pepe-ui';

/** A local server with a model list and a short answer, for the form's picture. */
function reply(req: RecordedRequest): Reply {
  if (req.method === 'GET' && req.url === '/v1/models') return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: [{ id: 'qwen2.5-coder:7b' }, { id: 'llama3.2:3b' }] }) };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: [chunk({ role: 'assistant', content: '' }), chunk({ content: 'ok' }), chunk({}, 'stop'), 'data: [DONE]\n\n'] };
}

const THEMES = [
  ['light', 'Default Light Modern', 'vs'],
  ['dark', 'Default Dark Modern', 'vs-dark'],
  ['hc', 'Default High Contrast', 'hc-black'],
] as const;

(process.env.PEPE_UPDATE_SCREENSHOTS === '1' ? describe : describe.skip)('e2e: first-hour screenshots (light, dark, high contrast)', function () {
  for (const [suffix, theme, themeClass] of THEMES) {
    describe(theme, function () {
      let wb: Workbench | undefined;
      let home: string;
      let server: TestServer;
      before(async function () {
        home = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-shots-'));
        server = await startServer((req) => reply(req));
        wb = await openWorkbench({ env: { PEPE_HOME: home }, settings: { 'workbench.colorTheme': theme } });
        await waitForWorkbench(wb.page);
      });
      afterEach(function () {
        return onTestFailure(this, wb);
      });
      after(async function () {
        await wb?.close();
        await server?.close();
        rmSync(home, { recursive: true, force: true });
      });

      it(`first-run sidebar, walkthrough and the model setup form (${suffix})`, async function () {
        const page = wb!.page;
        // The theme from the settings is applied after the workbench shows: wait for it.
        await waitFor(async () => (((await page.locator('.monaco-workbench').getAttribute('class')) ?? '').split(/\s+/).includes(themeClass) ? true : undefined), { timeoutMs: 30_000, what: `the ${theme} theme` });
        await openViewContainer(page, 'Pepe');
        const welcome = page.locator('.part.sidebar .pane:has(.pane-header[aria-label^="Agents"]) .welcome-view-content');
        await welcome.waitFor({ state: 'visible', timeout: 60_000 });
        // One Add Agent button in the sidebar: the Routes view explains, it does not repeat it.
        const routes = page.locator('.part.sidebar .pane:has(.pane-header[aria-label^="Routes"]) .welcome-view-content');
        await routes.waitFor({ state: 'visible', timeout: 30_000 });
        assert.equal(await routes.locator('.monaco-button').count(), 0, 'the Routes view repeats Add Agent');
        assert.match(domText(await routes.innerText()), /Routes say which agent may message which/);
        await page.mouse.move(900, 600); // no hover tooltip in the picture
        await sleep(1000);
        await docScreenshot(page, `first-run-sidebar-${suffix}.png`);

        await welcome.locator('a', { hasText: 'Open the walkthrough' }).click();
        await waitFor(async () => domText(await page.locator('.part.editor').innerText().catch(() => '')).includes('Get started with Pepe') || undefined, { timeoutMs: 60_000, what: 'the walkthrough' });
        await page.mouse.move(900, 800);
        await sleep(1500);
        await docScreenshot(page, `walkthrough-${suffix}.png`);

        await runCommand(page, 'View: Close All Editors');
        await runCommand(page, 'Pepe: Add Model…');
        const form = formFrame(page);
        await form.locator('#provider').waitFor({ state: 'visible', timeout: 60_000 });
        await form.locator('#provider').selectOption('openai-compatible');
        await form.locator('#base-url').fill(server.baseUrl);
        await waitFor(async () => ((await form.locator('#model-select option').allInnerTexts()).includes('qwen2.5-coder:7b') ? true : undefined), { timeoutMs: 30_000, what: 'the model list' });
        await form.locator('#test').click();
        await waitFor(async () => (/answered in \d+ ms/.test(domText(await form.locator('#status').innerText())) ? true : undefined), { timeoutMs: 60_000, what: 'the test answer' });
        await page.mouse.move(1300, 850);
        await sleep(800);
        await docScreenshot(page, `model-form-${suffix}.png`);
        await form.locator('#save').click();
        await form.locator('#after').waitFor({ state: 'visible', timeout: 30_000 });
        await form.locator('#close').click();
      });

      it(`the approval modal (${suffix})`, async function () {
        const page = wb!.page;
        // An agent whose (scripted) model runs a command that writes a file: the barrier asks.
        const script = path.join(home, 'run.json');
        writeFileSync(script, JSON.stringify({ steps: [{ tool_calls: [{ name: 'bash', arguments: { command: 'npm test > test-output.txt' } }] }, { text: 'done' }] }));
        const config = JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')) as Record<string, unknown>;
        writeFileSync(path.join(home, 'config.json'), JSON.stringify({ ...config, agents: { coder: { model: `mock:${script}` } } }, null, 2));
        await waitForTreeRow(page, 'Agents', /^coder\b/, 60_000);
        await runCommand(page, 'Pepe: Open Chat');
        const input = chatFrame(page).locator('#input');
        await input.waitFor({ state: 'visible', timeout: 60_000 });
        await input.fill('run the tests');
        await input.press('Enter');
        const message = await waitForDialog(page, 60_000);
        assert.match(message, /^coder wants to run a command in /);
        await page.mouse.move(1300, 850);
        await sleep(800);
        await docScreenshot(page, `approval-modal-${suffix}.png`);
        await page.keyboard.press('Escape');
        await page.locator('.quick-input-widget .quick-input-box input').waitFor({ state: 'visible', timeout: 30_000 });
        await page.keyboard.press('Escape');
      });
    });
  }
});
