/**
 * Runs the extension in a real VS Code: code-server (VS Code 1.139 with a Node extension host)
 * on a loopback port with a throwaway profile, and its workbench in headless Chromium driven by
 * playwright-core. Used by the integration runner (test/integration/run.ts) and by the e2e tests
 * (test/e2e/*.e2e.ts). Recipe and background: TESTING.md, "Real VS Code on this machine".
 *
 * Every wait here is time-bounded, and every process started here is tracked so `stopAll()` (called
 * by the runners on exit, on signals and on their global deadline) leaves nothing running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { checkPrereqs, repoRoot, type Prereqs } from './prereqs';

export { repoRoot } from './prereqs';

// ---------------------------------------------------------------------------------------------
// small utilities

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Rejects with a clear message when `promise` takes longer than `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `probe` until it returns a value other than undefined/false, or throws on timeout. */
export async function waitFor<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, opts: { timeoutMs: number; intervalMs?: number; what: string; abort?: () => string | undefined }): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  let lastError: unknown;
  for (;;) {
    const aborted = opts.abort?.();
    if (aborted) throw new Error(`${opts.what}: ${aborted}`);
    try {
      // A probe that itself waits (a locator, a fetch) must not outlive the deadline.
      const value = await withTimeout(Promise.resolve(probe()), Math.max(1000, deadline - Date.now()), opts.what);
      if (value !== undefined && value !== false) return value as T;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${opts.what}${cause}`);
    }
    await sleep(opts.intervalMs ?? 200);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** All descendants of `pid` (Linux /proc), children first in the list after their parents. */
function descendants(pid: number): number[] {
  if (!existsSync('/proc')) return [];
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ... ; comm may contain spaces and parentheses
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const next = queue.shift()!;
    for (const child of children.get(next) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

// ---------------------------------------------------------------------------------------------
// cleanup registry

const cleanups = new Set<() => Promise<void>>();
/** code-server process groups still running; killed synchronously if this process exits early. */
const liveGroups = new Set<number>();
process.on('exit', () => {
  for (const pgid of liveGroups) killQuietly(-pgid, 'SIGKILL');
});

/** Stops every code-server and browser started by this process (idempotent, bounded). */
export async function stopAll(): Promise<void> {
  const all = [...cleanups];
  cleanups.clear();
  await Promise.allSettled(all.map((fn) => withTimeout(fn(), 15_000, 'teardown')));
}

/**
 * Installs process-level safety nets: SIGINT/SIGTERM stop everything and exit, and an overall
 * deadline after which everything is stopped and the process exits 1 (no run can hang CI).
 */
export function installProcessGuards(opts: { deadlineMs: number; label: string }): void {
  const timer = setTimeout(() => {
    console.error(`\n${opts.label}: TIMEOUT: the run did not finish within ${Math.round(opts.deadlineMs / 1000)} s; stopping VS Code and Chromium.`);
    void stopAll().finally(() => process.exit(1));
  }, opts.deadlineMs);
  timer.unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${opts.label}: ${signal}: stopping VS Code and Chromium.`);
      void stopAll().finally(() => process.exit(130));
    });
  }
}

// ---------------------------------------------------------------------------------------------
// code-server

/**
 * Settings for the throwaway profile: no first-run noise, terminal text in the DOM, and a terminal
 * shell that does not read the machine's start-up files (a slow ~/.bashrc kept the prompt away for
 * longer than a test waits; the tests type their own commands and need only PATH).
 */
export const DEFAULT_SETTINGS: Record<string, unknown> = {
  'terminal.integrated.gpuAcceleration': 'off',
  'terminal.integrated.profiles.linux': { bash: { path: 'bash', args: ['--noprofile', '--norc'] } },
  'terminal.integrated.defaultProfile.linux': 'bash',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'github.gitAuthentication': false,
  'chat.commandCenter.enabled': false,
  'window.commandCenter': false,
  'editor.minimap.enabled': false,
  'files.simpleDialog.enable': true,
  'window.dialogStyle': 'custom',
};

export interface CodeServerOptions {
  /** Folder to open; default: an empty folder in the throwaway directory. */
  workspace?: string;
  /** Extra environment for code-server; the extension host inherits it (e.g. PEPE_HOME). */
  env?: Record<string, string>;
  /** Settings merged over DEFAULT_SETTINGS. */
  settings?: Record<string, unknown>;
  /** How long code-server may take to answer /healthz. Default 60 s. */
  startTimeoutMs?: number;
  prereqs?: Prereqs;
}

export interface CodeServer {
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The throwaway directory holding the profile, the extensions dir, the logs. */
  tmpDir: string;
  workspace: string;
  userDataDir: string;
  /** code-server's stdout+stderr. */
  logFile: string;
  pid: number;
  /** Set when code-server exited (with its exit code or signal). */
  exited: string | undefined;
  /**
   * Keep `tmpDir` (logs, profile) after stop() for a post-mortem; default false unless
   * PEPE_KEEP_VSCODE_TMP=1. Runners set it when a run fails.
   */
  keepTmpDir: boolean;
  /** The workbench URL opening `workspace`, loading the extension(s) under development. */
  workbenchUrl(opts?: { extensionDevelopmentPath?: string; extensionTestsPath?: string }): string;
  stop(): Promise<void>;
}

function remoteUri(port: number, absPath: string): string {
  return `vscode-remote://127.0.0.1:${port}${absPath}`;
}

export async function startCodeServer(opts: CodeServerOptions = {}): Promise<CodeServer> {
  const prereqs = opts.prereqs ?? checkPrereqs().paths;
  const tmpDir = mkdtempSync(path.join(tmpdir(), 'pepe-vscode-'));
  const userDataDir = path.join(tmpDir, 'user-data');
  const extensionsDir = path.join(tmpDir, 'extensions');
  const workspace = opts.workspace ?? path.join(tmpDir, 'workspace');
  for (const dir of [path.join(userDataDir, 'User'), extensionsDir, workspace, path.join(tmpDir, 'xdg-data')]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...DEFAULT_SETTINGS, ...opts.settings }, null, 2));
  // code-server's own config file; without --config it would create ~/.config/code-server/config.yaml.
  const configFile = path.join(tmpDir, 'config.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');
  const logFile = path.join(tmpDir, 'code-server.log');

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    // Leftovers from a parent VS Code or from tsx must not leak into code-server / the extension host.
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE' || key === 'NODE_OPTIONS') delete env[key];
  }
  Object.assign(env, {
    PATH: `${path.dirname(prereqs.node)}${path.delimiter}${process.env.PATH ?? ''}`,
    XDG_DATA_HOME: path.join(tmpDir, 'xdg-data'),
    ...opts.env,
  });

  let lastError = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const args = [
      prereqs.codeServerEntry,
      '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`,
      '--config', configFile,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--disable-proxy',
      '--ignore-last-opened',
      '--vscode-option', 'enable-smoke-test-driver',
      '--user-data-dir', userDataDir,
      '--extensions-dir', extensionsDir,
      workspace,
    ];
    const out = openSync(logFile, 'a');
    const child: ChildProcess = spawn(prereqs.node, args, { cwd: tmpDir, env, detached: true, stdio: ['ignore', out, out] });
    closeSync(out);
    const pid = child.pid;
    if (!pid) throw new Error('could not start code-server');
    liveGroups.add(pid);
    let exited: string | undefined;
    child.on('exit', (code, signal) => (exited = signal ? `signal ${signal}` : `exit code ${code}`));
    child.on('error', (err) => (exited = `spawn error: ${err.message}`));

    let stopped = false;
    const stop = async (): Promise<void> => {
      if (stopped) return;
      stopped = true;
      // Terminals run in their own sessions (node-pty setsid), so collect the whole tree first.
      const tree = [pid, ...descendants(pid)];
      killQuietly(-pid, 'SIGTERM');
      for (const p of tree) killQuietly(p, 'SIGTERM');
      const gone = await waitFor(() => tree.every((p) => !alive(p)), { timeoutMs: 5000, what: 'code-server exit', intervalMs: 100 }).catch(() => false);
      if (!gone) {
        killQuietly(-pid, 'SIGKILL');
        for (const p of tree) killQuietly(p, 'SIGKILL');
      }
      liveGroups.delete(pid);
    };
    const stopAndClean = async (): Promise<void> => {
      cleanups.delete(stopAndClean);
      await stop();
      if (!server.keepTmpDir) removeDir(tmpDir);
    };
    cleanups.add(stopAndClean);

    const server: CodeServer = {
      port,
      origin: `http://127.0.0.1:${port}`,
      tmpDir,
      workspace,
      userDataDir,
      logFile,
      pid,
      keepTmpDir: process.env.PEPE_KEEP_VSCODE_TMP === '1',
      get exited() {
        return exited;
      },
      workbenchUrl(o = {}) {
        const payload: [string, string][] = [];
        if (o.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remoteUri(port, o.extensionDevelopmentPath)]);
        if (o.extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(port, o.extensionTestsPath)]);
        const query = new URLSearchParams({ folder: workspace });
        if (payload.length) query.set('payload', JSON.stringify(payload));
        return `${this.origin}/?${query.toString()}`;
      },
      stop: stopAndClean,
    };

    try {
      await waitFor(
        async () => {
          const res = await fetch(`${server.origin}/healthz`, { signal: AbortSignal.timeout(2000) });
          return res.ok;
        },
        { timeoutMs: opts.startTimeoutMs ?? 60_000, what: `code-server on port ${port}`, abort: () => (exited ? `code-server ended (${exited})` : undefined) },
      );
      return server;
    } catch (err) {
      cleanups.delete(stopAndClean);
      await stop();
      lastError = `${(err as Error).message}\n--- code-server log (${logFile}) ---\n${tail(logFile)}`;
      // Only a lost race for the port is worth another try.
      if (!/EADDRINUSE/.test(tail(logFile, 20))) break;
    }
  }
  if (process.env.PEPE_KEEP_VSCODE_TMP !== '1') removeDir(tmpDir);
  throw new Error(`code-server did not start: ${lastError}`);
}

// ---------------------------------------------------------------------------------------------
// Chromium

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** Console messages that come from the closed network and mean nothing (TESTING.md). */
const HARMLESS_CONSOLE = [/github/i, /open-vsx/i, /vsda/i, /marketplace/i, /Failed to load resource/i, /ERR_(NAME_NOT_RESOLVED|INTERNET_DISCONNECTED|CONNECTION_REFUSED)/];

export interface Workbench {
  server: CodeServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Browser console lines ("[type] text"), page errors included. */
  console: string[];
  /** Console errors that are not known network noise. */
  consoleErrors(): string[];
  close(): Promise<void>;
}

export interface WorkbenchOptions extends CodeServerOptions {
  /** Folder of the extension under development; default: the repository root. null: none. */
  extensionDevelopmentPath?: string | null;
  /** Compiled integration-test module whose run() the extension host calls. */
  extensionTestsPath?: string;
  viewport?: { width: number; height: number };
  /** Default timeout for page actions. Default 30 s. */
  actionTimeoutMs?: number;
}

/** Starts code-server and opens its workbench in headless Chromium. */
export async function openWorkbench(opts: WorkbenchOptions = {}): Promise<Workbench> {
  const prereqs = opts.prereqs ?? checkPrereqs().paths;
  const server = await startCodeServer({ ...opts, prereqs });
  let browser: Browser | undefined;
  try {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: prereqs.chromium, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
    const launched = browser;
    const closeBrowser = async (): Promise<void> => {
      cleanups.delete(closeBrowser);
      await withTimeout(launched.close(), 10_000, 'closing Chromium').catch(() => undefined);
    };
    cleanups.add(closeBrowser);

    const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(opts.actionTimeoutMs ?? 30_000);
    page.setDefaultNavigationTimeout(60_000);
    const consoleLines: string[] = [];
    page.on('console', (msg) => consoleLines.push(`[${msg.type()}] ${msg.text()}`));
    page.on('pageerror', (err) => consoleLines.push(`[pageerror] ${err.message}`));

    const extensionDevelopmentPath = opts.extensionDevelopmentPath === null ? undefined : opts.extensionDevelopmentPath ?? repoRoot;
    await page.goto(server.workbenchUrl({ extensionDevelopmentPath, extensionTestsPath: opts.extensionTestsPath }), { waitUntil: 'domcontentloaded' });

    let closed = false;
    return {
      server,
      browser,
      context,
      page,
      console: consoleLines,
      consoleErrors: () => consoleLines.filter((l) => /^\[(error|pageerror)\]/.test(l) && !HARMLESS_CONSOLE.some((re) => re.test(l))),
      async close() {
        if (closed) return;
        closed = true;
        await closeBrowser();
        await server.stop();
      },
    };
  } catch (err) {
    if (browser) await withTimeout(browser.close(), 10_000, 'closing Chromium').catch(() => undefined);
    await server.stop();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// e2e helpers (all bounded by `timeoutMs`)

/** Normalises text read from the DOM (Monaco and xterm render spaces as U+00A0). */
export function domText(text: string): string {
  return text.replace(/\u00a0/g, ' ');
}

/** Waits until the workbench is rendered and interactive (activity bar, status bar, no splash). */
export async function waitForWorkbench(page: Page, timeoutMs = 90_000): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.monaco-workbench .part.activitybar, .monaco-workbench .part.sidebar').first().waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
  // The remote connection is up when the status bar shows the remote indicator / the explorer
  // has the folder; the command palette only lists an extension's commands after that.
  await page.waitForFunction("!document.querySelector('.monaco-workbench .part.editor .monaco-progress-container.active')", undefined, { timeout: timeoutMs });
}

/**
 * Runs a command from the palette the way a person does: F1, type the title, Enter. Waits for
 * the entry whose label is exactly `title` ("Category: Title") to be the selected row first, so a
 * similarly named command is never run by accident; retries while the command is not listed yet
 * (the extension's contributions arrive with the remote extension host).
 */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  let seen: string[] = [];
  while (Date.now() < deadline) {
    if (!(await input.isVisible())) {
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: Math.max(1, Math.min(5000, deadline - Date.now())) }).catch(() => undefined);
      if (!(await input.isVisible())) continue;
    }
    // The palette can close (or go inert) under us when something takes focus as it opens (a
    // walkthrough settling, a notification): start over instead of waiting for it.
    const typed = await input.fill(`>${title}`, { timeout: Math.max(1, Math.min(3000, deadline - Date.now())) }).then(
      () => true,
      () => false,
    );
    if (!typed) {
      await page.keyboard.press('Escape').catch(() => undefined);
      await sleep(300);
      continue;
    }
    const found = await waitFor(
      async () => {
        seen = (await rows.locator('.label-name').allInnerTexts()).map((l) => domText(l).trim());
        const index = seen.indexOf(title);
        return index >= 0 ? index : undefined;
      },
      { timeoutMs: Math.max(1, Math.min(1500, deadline - Date.now())), what: `"${title}" in the command palette` },
    ).catch(() => undefined);
    if (found !== undefined) {
      const focused = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first().innerText().catch(() => '');
      if (domText(focused).trim() === title) await page.keyboard.press('Enter');
      else await rows.nth(found).click();
      // The palette closes, or the command opened its own quick pick / input box in the same
      // widget (its value no longer starts with ">").
      await waitFor(async () => !(await input.isVisible()) || !(await input.inputValue()).startsWith('>'), { timeoutMs: 10_000, what: `the command palette to run "${title}"` });
      return;
    }
    // Not listed (yet): retype on the next round; the list refreshes as contributions arrive.
    await input.fill('>');
    await sleep(300);
  }
  await page.keyboard.press('Escape').catch(() => undefined);
  throw new Error(`command "${title}" not found in the command palette within ${timeoutMs} ms; it listed: ${seen.slice(0, 8).join(' | ') || 'nothing'}`);
}

/**
 * Answers the one proposed file change open (its diff tab says "Accept or Reject") through the
 * palette's "Pepe: Accept/Reject Proposed Change", and waits for its diff to close, which Pepe does
 * once the answer is taken. On a loaded machine the palette's list can change under the keystroke
 * that picks the command (another command ran instead, and the change waited on): when the diff is
 * still open after a while, the command is run again. A second run after one that was only slow
 * finds no change open and does nothing.
 */
export async function answerProposedChange(page: Page, answer: 'Accept' | 'Reject', timeoutMs = 60_000): Promise<void> {
  const open = async () => (await page.locator('.tabs-container .tab').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).some((l) => domText(l).includes('(Accept or Reject)'));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await runCommand(page, `Pepe: ${answer} Proposed Change`, Math.max(1, deadline - Date.now()));
    const closed = await waitFor(async () => ((await open()) ? undefined : true), { timeoutMs: Math.max(1, Math.min(15_000, deadline - Date.now())), what: 'the proposed change answered' }).catch(() => false);
    if (closed) return;
  }
  throw new Error(`the proposed change was still waiting for an answer after ${timeoutMs} ms`);
}

/** Clicks the button labelled `text` in the modal dialog (`.monaco-dialog-box`). */
export async function clickDialogButton(page: Page, text: string, timeoutMs = 30_000): Promise<void> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  const button = dialog.locator('.monaco-button').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) }).first();
  await button.click({ timeout: timeoutMs });
  await dialog.waitFor({ state: 'hidden', timeout: timeoutMs });
}

/** The message of the modal dialog, or undefined when none is open. */
export async function dialogMessage(page: Page): Promise<string | undefined> {
  const dialog = page.locator('.monaco-dialog-box');
  if (!(await dialog.isVisible())) return undefined;
  return domText(await dialog.locator('.dialog-message-text, .dialog-message').first().innerText());
}

/** Waits for a modal dialog (`.monaco-dialog-box`) and returns its message. */
export async function waitForDialog(page: Page, timeoutMs = 30_000): Promise<string> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  return domText(await dialog.locator('.dialog-message-text, .dialog-message').first().innerText({ timeout: timeoutMs }));
}

/** The visible text of the active terminal (GPU rendering is off, so xterm renders to the DOM). */
export async function readTerminalText(page: Page): Promise<string> {
  const rows = page.locator('.terminal-wrapper.active .xterm-rows, .xterm-rows').first();
  await rows.waitFor({ state: 'attached', timeout: 30_000 });
  const text = domText(await rows.innerText());
  return text.split('\n').map((l) => l.trimEnd()).join('\n').trimEnd();
}

/** Waits until the active terminal shows text matching `expected`; returns the whole text. */
export async function waitForTerminalText(page: Page, expected: string | RegExp, timeoutMs = 30_000): Promise<string> {
  return waitFor(async () => {
    const text = await readTerminalText(page);
    return matches(text, expected) ? text : undefined;
  }, { timeoutMs, what: `terminal text ${String(expected)}` });
}

/** The text of the Output panel (the channel it currently shows). */
export async function readOutputText(page: Page): Promise<string> {
  const lines = page.locator('.part.panel .output-view .view-lines, .part.panel [id="workbench.panel.output"] .view-lines').first();
  await lines.waitFor({ state: 'visible', timeout: 30_000 });
  return domText(await lines.innerText());
}

/** Waits until the Output panel shows text matching `expected`; returns the whole text. */
export async function waitForOutputText(page: Page, expected: string | RegExp, timeoutMs = 30_000): Promise<string> {
  return waitFor(async () => {
    const text = await readOutputText(page);
    return matches(text, expected) ? text : undefined;
  }, { timeoutMs, what: `output text ${String(expected)}` });
}

/** The name of the channel the Output panel shows (from its channel picker). */
export async function currentOutputChannel(page: Page): Promise<string> {
  const select = page.locator('.part.panel .monaco-select-box[aria-label*="Output"], .part.panel select.monaco-select-box').first();
  await select.waitFor({ state: 'visible', timeout: 30_000 });
  return select.evaluate((el) => {
    // (no DOM lib in this project's tsconfig)
    const s = el as unknown as { options: ArrayLike<{ text: string }>; selectedIndex: number; value: string };
    return s.options[s.selectedIndex]?.text ?? s.value;
  });
}

/** Opens a view container (activity bar entry) by its title, e.g. "Pepe" or "Explorer". */
export async function openViewContainer(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const item = page.locator(`.part.activitybar .action-item a.action-label[aria-label^="${title.replace(/"/g, '\\"')}"]`).first();
  await item.waitFor({ state: 'visible', timeout: timeoutMs });
  const pane = page.locator('.part.sidebar .composite.title h2').first();
  const current = domText(await pane.innerText().catch(() => '')).trim().toLowerCase();
  if (current !== title.toLowerCase()) await item.click({ timeout: timeoutMs });
  await waitFor(async () => domText(await pane.innerText()).trim().toLowerCase() === title.toLowerCase(), { timeoutMs, what: `the "${title}" view container` });
}

/**
 * For a mocha `afterEach`: when the test failed, saves a screenshot to
 * .test-tmp/e2e-failures/<test>.png, keeps the code-server profile and logs, and prints where they
 * are plus the browser console errors. Usage: `afterEach(function () { return onTestFailure(this, wb); })`.
 */
export async function onTestFailure(ctx: Mocha.Context, wb: Workbench | undefined): Promise<void> {
  const test = ctx.currentTest;
  if (!wb || test?.state !== 'failed') return;
  wb.server.keepTmpDir = true;
  const name = test.fullTitle().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
  const file = await screenshot(wb.page, path.join('.test-tmp', 'e2e-failures', `${name}.png`), 10_000).catch(() => undefined);
  console.log(`    failure screenshot: ${file ?? '(none)'}`);
  console.log(`    code-server profile and log: ${wb.server.tmpDir} (${path.basename(wb.server.logFile)})`);
  const errors = wb.consoleErrors();
  if (errors.length) console.log(`    browser console errors:\n      ${errors.slice(-10).join('\n      ')}`);
  // A modal left open by the failed test (an approval it never answered) would hold its turn, and
  // every later test in the file would fail behind it: dismiss it, so one failure stays one.
  const dialog = wb.page.locator('.monaco-dialog-box');
  if (await dialog.isVisible().catch(() => false)) {
    await wb.page.keyboard.press('Escape').catch(() => undefined);
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => console.log('    a modal dialog stayed open after the failure'));
  }
}

/** Saves a PNG screenshot of the whole workbench to `file` (folders are created). */
export async function screenshot(page: Page, file: string, timeoutMs = 30_000): Promise<string> {
  const abs = path.resolve(repoRoot, file);
  mkdirSync(path.dirname(abs), { recursive: true });
  await page.screenshot({ path: abs, timeout: timeoutMs });
  return abs;
}

function matches(text: string, expected: string | RegExp): boolean {
  return typeof expected === 'string' ? text.includes(expected) : expected.test(text);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Removes a throwaway directory (best effort). */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
