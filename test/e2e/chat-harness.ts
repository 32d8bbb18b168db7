/**
 * What the chat e2e tests share: the extension folder they load (the real dist/ plus a test
 * entry that wires the chat panels, see chat-test-extension.ts) and helpers to reach into the
 * chat webview.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { repoRoot, waitFor } from '../vscode/harness';

export const OPEN_PANEL = 'Pepe: Open Chat Panel (test)';
export const BENCH = 'Pepe: Chat Rendering Benchmark (test)';

/** Builds .test-tmp/chat-ext-<pid>/ (package.json + dist/ symlinks + the test entry); returns its path. */
export async function buildChatTestExtension(): Promise<string> {
  const dir = path.join(repoRoot, '.test-tmp', `chat-ext-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'dist'), { recursive: true });
  for (const f of readdirSync(path.join(repoRoot, 'dist'))) symlinkSync(path.join(repoRoot, 'dist', f), path.join(dir, 'dist', f));
  symlinkSync(path.join(repoRoot, 'media'), path.join(dir, 'media'));
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    main: string;
    activationEvents?: string[];
    contributes: { commands: { command: string; title: string; category?: string }[] };
  };
  pkg.main = './dist/chat-test-main.js';
  pkg.activationEvents = [...new Set([...(pkg.activationEvents ?? []), 'onWebviewPanel:pepe.chat'])];
  pkg.contributes.commands.push(
    { command: 'pepe.chat.test.open', title: 'Open Chat Panel (test)', category: 'Pepe' },
    { command: 'pepe.chat.test.bench', title: 'Chat Rendering Benchmark (test)', category: 'Pepe' },
  );
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(repoRoot, 'test', 'e2e', 'chat-test-extension.ts')],
    outfile: path.join(dir, 'dist', 'chat-test-main.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode', './extension.js'],
    logLevel: 'warning',
  });
  return dir;
}

/** The chat webview's content (the visible one). */
export function chatFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
}

/** The chat webview's Frame, to evaluate in it (checks that no injected script ran; timings). */
export async function chatFrameHandle(page: Page, timeoutMs = 30_000): Promise<Frame> {
  return waitFor(
    async () => {
      const outer = await page.locator('iframe.webview.ready').last().elementHandle();
      const outerFrame = await outer?.contentFrame();
      const inner = await outerFrame?.locator('#active-frame').elementHandle();
      const frame = await inner?.contentFrame();
      return frame && (await frame.locator('#transcript').count()) > 0 ? frame : undefined;
    },
    { timeoutMs, what: 'the chat webview frame' },
  );
}

export function readJsonLines(file: string): unknown[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
}
