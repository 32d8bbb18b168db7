/**
 * Background tasks (issue 28) in a real workbench: "New Background Task" from the palette starts a
 * task in a git worktree of its own; its gated command waits in the Tasks view's queue (no dialog)
 * and is approved from its row; the task goes on and ends; its changes open in VS Code's diff
 * editor; a commit for a pull request puts them on the task's branch by the person's git identity;
 * Merge brings them into the person's checkout, untouched until then.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { clickDialogButton, domText, onTestFailure, openViewContainer, openWorkbench, runCommand, waitFor, waitForWorkbench, type Workbench } from '../vscode/harness';
import { answerInput, expandView, makePepeHome, runContextMenuItem, waitForTreeRow } from './pepe-ui';

describe('e2e: background tasks from the Tasks view', function () {
  let wb: Workbench | undefined;
  let home: string;
  let root: string;
  let repo: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t.invalid' } }).toString();

  before(async function () {
    root = mkdtempSync(path.join(process.platform === 'linux' ? '/var/tmp' : tmpdir(), 'pepe-e2e-tasks-'));
    repo = path.join(root, 'repo');
    mkdirSync(repo);
    git('init', '-q', '-b', 'main');
    writeFileSync(path.join(repo, 'README.md'), 'hello\n');
    git('add', 'README.md');
    git('commit', '-q', '-m', 'first');
    // The person's own identity, in the repository's configuration: the task's commits are theirs.
    git('config', 'user.name', 'Pat Person');
    git('config', 'user.email', 'pat@example.invalid');
    home = makePepeHome({});
    const script = path.join(home, 'task.script.json');
    writeFileSync(script, JSON.stringify({ steps: [{ tool_calls: [{ name: 'bash', arguments: { command: 'echo from-the-task > task.txt' } }] }, { text: 'waiting for the person' }, { text: 'wrote task.txt' }] }));
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ agents: { coder: { model: `mock:${script}` } } }, null, 2));
    wb = await openWorkbench({ workspace: repo, env: { PEPE_HOME: home, PEPE_TASKS_HOME: path.join(root, 'tasks') } });
    await waitForWorkbench(wb.page);
    await openViewContainer(wb.page, 'Pepe');
    await expandView(wb.page, 'Agents', false);
    await expandView(wb.page, 'Routes', false);
    await expandView(wb.page, 'Tasks');
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('start a task from the UI, approve its command from the queue, review its diff, merge', async function () {
    const page = wb!.page;
    await runCommand(page, 'Pepe: New Background Task…');
    await answerInput(page, 'write task.txt');
    const [row] = (await waitForTreeRow(page, 'Tasks', /^task [0-9a-f]+: write task\.txt, waiting for approval/, 120_000)).filter((r) => r.startsWith('task '));
    const id = /^task ([0-9a-f]+)/.exec(row!)![1]!;
    assert.equal(existsSync(path.join(repo, 'task.txt')), false);
    // The queue: the call is a row under its task, approved from there (no dialog was opened).
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0);
    const approval = page.locator(`.part.sidebar .pane:has(.pane-header[aria-label^="Tasks"]) .monaco-list-row[aria-label^="approval "][aria-label*="of task ${id}"]`);
    await approval.hover();
    await approval.locator('.action-label[aria-label^="Approve Task Call"]').click();
    // Approving runs the call here, at once, in the task's worktree; the person is told how it went.
    await waitForNotice(page, `for task ${id}; it ran.`);
    await waitForTreeRow(page, 'Tasks', new RegExp(`^task ${id}: write task\\.txt, done`), 120_000);
    const worktree = path.join(root, 'tasks', 'worktrees', id);
    assert.ok(existsSync(path.join(worktree, 'task.txt')), `the approved call did not write the worktree; notifications: ${await notices(page, false)}`);
    assert.equal(readFileSync(path.join(worktree, 'task.txt'), 'utf8'), 'from-the-task\n');
    assert.equal(existsSync(path.join(repo, 'task.txt')), false, 'the checkout is untouched until the merge');

    const taskRow = page.locator(`.part.sidebar .pane:has(.pane-header[aria-label^="Tasks"]) .monaco-list-row[aria-label^="task ${id}:"]`);
    await taskRow.hover();
    await taskRow.locator('.action-label[aria-label^="Review Task Changes"]').click();
    await waitFor(async () => ((await page.locator('.tabs-container .tab').allInnerTexts()).some((t) => t.includes(`Task ${id}`)) ? true : undefined), { timeoutMs: 30_000, what: "the task's diff editor" });
    await waitFor(async () => ((await page.locator('.editor-group-container').innerText().catch(() => '')).includes('task.txt') ? true : undefined), { timeoutMs: 30_000, what: 'task.txt in the diff' });

    // A commit for a pull request, from the row's context menu: on the task's branch, by the person.
    const box = page.locator('.quick-input-widget .quick-input-box input');
    await runContextMenuItem(page, taskRow, 'Commit Task for Pull Request…', () => box.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false));
    assert.equal(await box.inputValue(), 'write task.txt', "the message offered is the task's text");
    await answerInput(page, 'Add task.txt');
    await waitForNotice(page, `committed task ${id}'s work on branch pepe/task-${id}`);
    assert.equal(git('log', '-1', '--format=%an <%ae>|%s', `pepe/task-${id}`).trim(), 'Pat Person <pat@example.invalid>|Add task.txt');
    assert.equal(existsSync(path.join(repo, 'task.txt')), false, 'a commit for a pull request leaves the checkout as it is');

    await taskRow.hover();
    await taskRow.locator('.action-label[aria-label^="Merge Task"]').click();
    await clickDialogButton(page, 'Merge');
    await waitForNotice(page, `merged task ${id} (fast-forward) by Pat Person <pat@example.invalid>.`);
    await waitFor(() => (existsSync(path.join(repo, 'task.txt')) ? true : undefined), { timeoutMs: 60_000, what: 'the merge' });
    assert.equal(readFileSync(path.join(repo, 'task.txt'), 'utf8'), 'from-the-task\n');
    assert.equal(git('log', '-1', '--format=%an|%s').trim(), 'Pat Person|Add task.txt');
    await waitForTreeRow(page, 'Tasks', new RegExp(`^task ${id}: write task\\.txt, done, merged`), 30_000);
  });
});

/**
 * Every notification's message, in a toast or in the notification centre (a toast without buttons
 * hides itself after a while; the centre is opened when the text is not found), spaces as typed.
 */
async function notices(page: Workbench['page'], open = true): Promise<string> {
  const text = domText(await page.evaluate(() => Array.from(document.querySelectorAll('.notification-list-item-message'), (e) => e.textContent ?? '').join('\n')));
  if (open && (await page.locator('.notifications-center.visible').count()) === 0) await page.locator('.statusbar-item[id="status.notifications"]').first().click({ timeout: 2_000 }).catch(() => undefined);
  return text;
}

async function waitForNotice(page: Workbench['page'], expected: string): Promise<void> {
  await waitFor(async () => ((await notices(page, false)).includes(expected) || (await notices(page)).includes(expected) ? true : undefined), { timeoutMs: 60_000, what: `the notice "${expected}"` });
  if ((await page.locator('.notifications-center.visible').count()) > 0) await page.keyboard.press('Escape');
}
