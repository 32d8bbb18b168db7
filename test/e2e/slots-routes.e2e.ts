/**
 * Acceptance (issue 6), in a real workbench: the Slots tree lists the seven built-in slots; Set
 * Slot… / Clear Slot… from the palette change the tree and config.json; `pepe slot set` in a
 * terminal shows up without a reload; a plugin's fallback shows in the tree without a refresh; the
 * Routes tree shows routes added from the UI, never the
 * reverse one, and removing one updates config.json.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { domText, onTestFailure, openViewContainer, openWorkbench, repoRoot, runCommand, waitFor, waitForWorkbench, type Workbench } from '../vscode/harness';
import { answerInput, docScreenshot, expandView, makePepeHome, pickItem, treeRows, typeIntoFocusedInput, waitForQuickInputClosed, waitForTreeRow, watchQuickInput } from './pepe-ui';

const SLOTS = ['memory', 'web_search', 'sandbox', 'model_select', 'heartbeat_interval', 'compaction', 'harness'];

describe('e2e: slots and routes in the Pepe sidebar', function () {
  let wb: Workbench | undefined;
  let home: string;
  const config = () => JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8'));

  before(async function () {
    home = makePepeHome({ agents: { triage: { model: 'mock', tools: ['send_to_agent'] }, billing: { model: 'mock' }, refunds: { model: 'mock' } } });
    wb = await openWorkbench({ env: { PEPE_HOME: home } });
    await waitForWorkbench(wb.page);
    await openViewContainer(wb.page, 'Pepe');
    // Slots is an advanced view, collapsed on first run; Agents and Routes make room for its rows
    // (a tree renders only the rows in view).
    await expandView(wb.page, 'Agents', false);
    await expandView(wb.page, 'Routes', false);
    await expandView(wb.page, 'Slots');
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('the Slots tree lists the seven slots with their built-in occupants', async function () {
    const rows = await waitForTreeRow(wb!.page, 'Slots', 'harness: builtin', 60_000);
    for (const slot of SLOTS) assert.ok(rows.includes(`${slot}: builtin`), `missing "${slot}: builtin" in ${rows.join(' | ')}`);
  });

  it('Set Slot… (memory → install-wide → example_memory) updates the tree and config.json; Clear Slot… returns it', async function () {
    const page = wb!.page;
    await runCommand(page, 'Pepe: Set Slot…');
    await pickItem(page, 'memory');
    await pickItem(page, 'Install-wide');
    await pickItem(page, 'example_memory');
    await waitForTreeRow(page, 'Slots', 'memory: example_memory');
    assert.equal(config().slots.memory, 'example_memory');
    await docScreenshot(page, 'sidebar-slots.png');

    await runCommand(page, 'Pepe: Clear Slot…');
    await pickItem(page, 'memory');
    await waitForTreeRow(page, 'Slots', 'memory: builtin');
    assert.equal(config().slots?.memory, undefined);
  });

  it('`pepe slot set` typed in a terminal shows in the tree without a reload', async function () {
    const page = wb!.page;
    await runCommand(page, 'Terminal: Create New Terminal');
    await waitFor(async () => (await page.locator('.xterm-rows').first().innerText()).match(/[$#]\s*$/m), { timeoutMs: 30_000, what: 'a shell prompt' });
    await page.keyboard.type(`PEPE_HOME='${home}' node '${path.join(repoRoot, 'dist', 'cli.js')}' slot set memory example_memory\n`);
    await waitForTreeRow(page, 'Slots', 'memory: example_memory', 30_000);
    assert.equal(config().slots.memory, 'example_memory');
  });

  it('a plugin that fails falls back, and the Slots tree shows it without a refresh', async function () {
    const page = wb!.page;
    writeFileSync(
      path.join(home, 'plugins', 'broken_memory.mjs'),
      "export function name() { return 'broken_memory'; }\nexport function slot() { return 'memory'; }\nexport function search() { throw new Error('broken on purpose'); }\n",
    );
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ ...config(), slots: { ...config().slots, memory: 'broken_memory' } }, null, 2) + '\n');
    await waitForTreeRow(page, 'Slots', /^memory: broken_memory$/, 30_000);
    // Test Slot… runs the slot as a turn would; nothing but the fallback itself refreshes the tree.
    await runCommand(page, 'Pepe: Test Slot…');
    await pickItem(page, 'memory');
    await answerInput(page, 'anything');
    await waitForTreeRow(page, 'Slots', /^memory: broken_memory · 1 fallback$/, 30_000);
    // The result opens as a read-only view, not an unsaved document.
    await waitFor(async () => ((await page.locator('.tabs-container .tab.active').getAttribute('aria-label')) ?? '').includes('Test Slot memory.json') || undefined, { timeoutMs: 30_000, what: 'the Test Slot view' });
    await runCommand(page, 'View: Close All Editors');
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'closing the Test Slot view asked to save it');
  });

  it('Routes: triage → billing, refunds added from the UI; the reverse never appears; removing updates config.json', async function () {
    const page = wb!.page;
    await expandView(page, 'Slots', false);
    await expandView(page, 'Routes');
    for (const to of ['billing', 'refunds']) {
      await runCommand(page, 'Pepe: Add Route…');
      // One input for the two steps (issue 26): it stays open and keeps the keyboard.
      const flow = await watchQuickInput(page, 'from which agent');
      await pickItem(page, 'triage');
      await typeIntoFocusedInput(page, to, { pick: true });
      await waitForQuickInputClosed(page);
      assert.equal(await flow.closes(), 1, `the input closed between "from" and "to": ${await flow.log()}`);
      await waitForTreeRow(page, 'Routes', `route triage → ${to}`);
    }
    assert.deepEqual(config().agents.triage.can_message, ['billing', 'refunds']);
    const rows = await treeRows(page, 'Routes');
    assert.ok(!rows.some((r) => /route (billing|refunds) → triage/.test(r)), `a reverse route is shown: ${rows.join(' | ')}`);
    assert.equal(config().agents.billing.can_message, undefined);
    // The terminal of the previous test shows this machine's paths: keep it out of the picture.
    if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Toggle Panel Visibility');
    await docScreenshot(page, 'sidebar-routes.png');

    await runCommand(page, 'Pepe: Remove Route…');
    await pickItem(page, 'triage → refunds');
    await waitFor(async () => !(await treeRows(page, 'Routes')).includes('route triage → refunds'), { timeoutMs: 30_000, what: 'the removed route to leave the tree' });
    // A route's row is the agent's name beside an arrow icon: no "→ → billing".
    const labels = await page.locator('.part.sidebar .pane:has(.pane-header[aria-label^="Routes"]) .monaco-list-row .label-name').allInnerTexts();
    assert.ok(labels.map((l) => domText(l).trim()).includes('billing'), labels.join(' | '));
    assert.ok(!labels.some((l) => l.includes('→')), labels.join(' | '));
    assert.deepEqual(config().agents.triage.can_message, ['billing']);
  });
});
