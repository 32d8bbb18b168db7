/**
 * e2e helpers for Pepe's own UI: quick picks and input boxes answered by label, tree rows of the
 * Pepe views read through their accessible labels, and screenshots saved for the docs.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { domText, repoRoot, screenshot, waitFor } from '../vscode/harness';

/** Picks the quick-pick row labelled exactly `label` (typing it to filter first). */
export async function pickItem(page: Page, label: string, timeoutMs = 30_000): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(label);
  const focused = page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
  await waitFor(async () => domText(await focused.innerText()).trim() === label, { timeoutMs, what: `quick pick row "${label}" focused` });
  await page.keyboard.press('Enter');
}

/**
 * Runs the item labelled `label` of `target`'s context menu, then waits for `ran` (what the item
 * opens). The item is chosen by keyboard (hovered, so focused, then Enter), never by a click: a
 * workbench menu item listens for the mouse only 100 ms after it is drawn, on a timer a busy
 * browser runs late, and a click before that is dropped while the menu stays open. A menu left
 * open (its full-window mouse block would swallow the next right-click) is closed first.
 */
export async function runContextMenuItem(page: Page, target: Locator, label: string, ran: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const menu = page.locator('.context-view .monaco-menu');
  const item = page.locator('.context-view .action-item', { has: page.locator('.action-label', { hasText: label }) });
  const steps: string[] = [];
  await waitFor(async () => {
    if ((await menu.count()) > 0) {
      await page.keyboard.press('Escape');
      await menu.first().waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
    }
    const step = await (async () => {
      if (!(await target.click({ button: 'right', timeout: 5_000 }).then(() => true, () => false))) return 'the target could not be right-clicked';
      if (!(await item.first().hover({ timeout: 5_000 }).then(() => true, () => false))) return `no "${label}" in the menu (${domText((await menu.allInnerTexts().catch(() => [])).join(' | '))})`;
      const focused = await waitFor(async () => ((await item.first().getAttribute('class'))?.split(/\s+/).includes('focused') ? true : undefined), { timeoutMs: 5_000, what: 'focus' }).then(() => true, () => false);
      if (!focused) return `"${label}" was not focused by the pointer`;
      await page.keyboard.press('Enter');
      return (await ran()) ? undefined : `"${label}" was chosen, and what it opens did not show`;
    })();
    if (step === undefined) return true;
    steps.push(step);
    return undefined;
  }, { timeoutMs, what: `"${label}" from the context menu`, intervalMs: 500 }).catch((err: Error) => {
    throw new Error(`${err.message}; attempts: ${steps.join('; ') || 'none'}`);
  });
}

/** Waits until no quick pick or input box is open (before running the next command). */
export async function waitForQuickInputClosed(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout: timeoutMs });
}

/**
 * Types into the open input box and presses Enter, then waits until that box has gone (closed, or
 * the next step's box with another title or prompt is shown). Without the wait, the next answer
 * could be typed into this same box before the workbench swaps it for the next one.
 */
export async function answerInput(page: Page, text: string, timeoutMs = 30_000): Promise<void> {
  const widget = page.locator('.quick-input-widget').first();
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  // The box in front of the person: its title, its kind (text or password) and what it holds.
  const step = () =>
    widget
      .evaluate((el) => {
        const box = el.querySelector<HTMLInputElement>('.quick-input-box input');
        return { title: el.querySelector('.quick-input-title')?.textContent ?? '', type: box?.type ?? '', value: box?.value ?? '' };
      })
      .catch(() => null);
  const before = await step();
  await input.fill(text);
  await page.keyboard.press('Enter');
  await waitFor(
    async () => {
      if (!(await widget.isVisible())) return true;
      const now = await step();
      return !now || now.title !== before?.title || now.type !== before?.type || now.value !== text ? true : undefined;
    },
    { timeoutMs, what: `the input box answered "${text}" to move on` },
  );
}

/** Expands (or collapses) a Pepe view's pane: Slots is collapsed on first run. */
export async function expandView(page: Page, view: string, expanded = true, timeoutMs = 30_000): Promise<void> {
  const header = page.locator(`.part.sidebar .pane-header[aria-label^="${view}"]`).first();
  await header.waitFor({ state: 'visible', timeout: timeoutMs });
  const want = String(expanded);
  if ((await header.getAttribute('aria-expanded')) !== want) await header.click();
  await waitFor(async () => ((await header.getAttribute('aria-expanded')) === want ? true : undefined), { timeoutMs, what: `the ${view} view ${expanded ? 'expanded' : 'collapsed'}` });
}

/** Accessible labels of the rows of a Pepe view ("Slots", "Routes", "Agents"). */
export async function treeRows(page: Page, view: string): Promise<string[]> {
  const pane = page.locator(`.part.sidebar .pane:has(.pane-header[aria-label^="${view}"])`).first();
  const rows = pane.locator('.monaco-list-row');
  return (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).map(domText);
}

export async function waitForTreeRow(page: Page, view: string, expected: string | RegExp, timeoutMs = 30_000): Promise<string[]> {
  return waitFor(
    async () => {
      const rows = await treeRows(page, view);
      return rows.some((r) => (typeof expected === 'string' ? r === expected : expected.test(r))) ? rows : undefined;
    },
    { timeoutMs, what: `a ${view} row ${String(expected)}` },
  );
}

/** docs/screenshots/<name> when PEPE_UPDATE_SCREENSHOTS=1, else .test-tmp/screenshots/<name>. */
export async function docScreenshot(page: Page, name: string): Promise<string> {
  const dir = process.env.PEPE_UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : '.test-tmp/screenshots';
  const file = await screenshot(page, path.join(dir, name));
  console.log(`    screenshot: ${path.relative(process.cwd(), file)}`);
  return file;
}

/** A throwaway PEPE_HOME with the example_memory plugin installed and `config` written. */
export function makePepeHome(config: Record<string, unknown>): string {
  const home = mkdtempSync(path.join(tmpdir(), 'pepe-e2e-home-'));
  mkdirSync(path.join(home, 'plugins'), { recursive: true });
  copyFileSync(path.join(repoRoot, 'docs', 'examples', 'plugins', 'example_memory.mjs'), path.join(home, 'plugins', 'example_memory.mjs'));
  writeFileSync(path.join(home, 'config.json'), JSON.stringify(config, null, 2) + '\n');
  return home;
}

/** The model setup form's page (the last webview opened: the form while it is in front). */
export function formFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
}

/**
 * Once the quick input titled `title` shows, records whether it closes (or closes and opens again) before
 * `closes()` is asked: a multi-step flow on one input object keeps it open from step to step,
 * while one quick pick per step closes it in between. `closes()` counts both kinds of change.
 */
export async function watchQuickInput(page: Page, title: string | RegExp, timeoutMs = 30_000): Promise<{ closes(): Promise<number>; log(): Promise<string> }> {
  const widget = page.locator('.quick-input-widget').first();
  // The flow's first step (not the command palette that started it, which closes first).
  await waitFor(async () => {
    const shown = domText(await widget.locator('.quick-input-title').innerText().catch(() => ''));
    return (await widget.isVisible()) && (typeof title === 'string' ? shown.includes(title) : title.test(shown)) ? true : undefined;
  }, { timeoutMs, what: `the quick input "${String(title)}"` });
  await widget.evaluate((el) => {
    const w = el as HTMLElement & { pepeCloses?: string[]; pepeWatch?: MutationObserver };
    w.pepeWatch?.disconnect(); // one watch at a time (the widget is reused from flow to flow)
    w.pepeCloses = [];
    let hidden = false;
    // (no named function in here: the test runner's bundler would wrap it in a helper the page lacks)
    w.pepeWatch = new MutationObserver((records) => {
      const title = w.querySelector('.quick-input-title')?.textContent ?? '';
      // Hidden and shown again within one batch of changes: the old style said "none".
      if (!hidden && records.some((r) => r.attributeName === 'style' && /display:\s*none/.test(r.oldValue ?? ''))) w.pepeCloses!.push(`closed and reopened at "${title}"`);
      const now = getComputedStyle(w).display === 'none';
      if (now && !hidden) w.pepeCloses!.push(`closed at "${title}"`);
      hidden = now;
    });
    w.pepeWatch.observe(w, { attributes: true, attributeFilter: ['style', 'class'], attributeOldValue: true });
  });
  const closes = () => widget.evaluate((el) => (el as HTMLElement & { pepeCloses?: string[] }).pepeCloses ?? []);
  return { closes: async () => (await closes()).length, log: async () => (await closes()).join('; ') };
}

/**
 * Types into whatever has the keyboard, with no click or fill first, after checking that it is
 * the quick input's own box (the keyboard stayed there from the step before); then Enter (with
 * `pick`, once the row labelled `text` is the focused one).
 */
export async function typeIntoFocusedInput(page: Page, text: string, opts: { pick?: boolean; timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  await waitFor(
    () => page.evaluate(() => (document.activeElement?.matches('.quick-input-widget .quick-input-box input') ? true : undefined)),
    { timeoutMs, what: 'the quick input box to have the keyboard' },
  );
  await page.keyboard.type(text);
  if (opts.pick) {
    // A pick: Enter once the row labelled `text` is the focused one.
    const focused = page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
    await waitFor(async () => domText(await focused.innerText().catch(() => '')).trim() === text, { timeoutMs, what: `quick pick row "${text}" focused` });
  }
  await page.keyboard.press('Enter');
}
