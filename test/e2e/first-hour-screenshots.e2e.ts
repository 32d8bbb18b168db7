/**
 * The first-hour pictures for docs/screenshots, in light, dark and high-contrast themes: the
 * first-run sidebar, the walkthrough and Add Model's first step. One workbench per theme (the
 * theme is a start-up setting, so nothing but the theme differs). Runs only when updating the
 * pictures (PEPE_UPDATE_SCREENSHOTS=1), since it costs three workbenches; each picture still
 * checks that the screen it shows is there.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { domText, onTestFailure, openViewContainer, openWorkbench, runCommand, sleep, waitFor, waitForWorkbench, type Workbench } from '../vscode/harness';
import { docScreenshot } from './pepe-ui';

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
      before(async function () {
        home = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-shots-'));
        wb = await openWorkbench({ env: { PEPE_HOME: home }, settings: { 'workbench.colorTheme': theme } });
        await waitForWorkbench(wb.page);
      });
      afterEach(function () {
        return onTestFailure(this, wb);
      });
      after(async function () {
        await wb?.close();
        rmSync(home, { recursive: true, force: true });
      });

      it(`first-run sidebar, walkthrough and Add Model (${suffix})`, async function () {
        const page = wb!.page;
        assert.ok(((await page.locator('.monaco-workbench').getAttribute('class')) ?? '').split(/\s+/).includes(themeClass), `not the ${theme} theme`);
        await openViewContainer(page, 'Pepe');
        const welcome = page.locator('.part.sidebar .pane:has(.pane-header[aria-label^="Agents"]) .welcome-view-content');
        await welcome.waitFor({ state: 'visible', timeout: 60_000 });
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
        await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first().waitFor({ state: 'visible' });
        await sleep(800);
        await docScreenshot(page, `add-model-${suffix}.png`);
        await page.keyboard.press('Escape');
      });
    });
  }
});
