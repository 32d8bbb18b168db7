/**
 * Rendering speed of the chat webview (issue 7, docs/chat.md): a transcript of 1,000 messages,
 * then an answer of 20,000 tokens streamed into it, through the real host → webview path
 * (protocol, batching, validation, markdown). The webview frame records long tasks
 * (PerformanceObserver 'longtask') and the longest gap between animation frames.
 *
 * The tokens arrive at PEPE_CHAT_BENCH_TPS tokens/s (default here 1000: 20 s instead of 100 s at
 * 200/s). The renderer coalesces all deltas of a frame into one render, so a faster feed means
 * more text per frame, i.e. at least as much work per frame as 200 tokens/s.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { onTestFailure, openWorkbench, runCommand, waitFor, waitForWorkbench, type Workbench } from '../vscode/harness';
import { BENCH, buildChatTestExtension, chatFrameHandle, OPEN_PANEL } from './chat-harness';
import { makePepeHome } from './pepe-ui';
import { repoRoot } from '../vscode/prereqs';

interface Probe {
  longTasks: { start: number; duration: number }[];
  maxFrameGap: number;
  frameGapsOver50: number;
  messages: number;
  streaming: number;
  lastLength: number;
  now: number;
}

describe('e2e: chat rendering speed', function () {
  let wb: Workbench | undefined;
  let home: string;
  const tps = Number(process.env.PEPE_CHAT_BENCH_TPS) || 1000;

  before(async function () {
    home = makePepeHome({ agents: { bench: { model: 'mock' } } });
    const extension = await buildChatTestExtension();
    wb = await openWorkbench({ env: { PEPE_HOME: home, PEPE_CHAT_BENCH_TPS: String(tps) }, extensionDevelopmentPath: extension });
    await waitForWorkbench(wb.page);
  });
  afterEach(function () {
    return onTestFailure(this, wb);
  });
  after(async function () {
    await wb?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it(`1,000 messages, then 20,000 tokens at ${tps} tokens/s: the longest main-thread task is recorded`, async function () {
    const page = wb!.page;
    await runCommand(page, OPEN_PANEL);
    const frame: Frame = await chatFrameHandle(page, 60_000);
    // Strings, not functions: tsx's transform would add helpers (__name) the page does not have.
    await frame.evaluate(`(() => {
      const b = (window.__bench = { longTasks: [], maxFrameGap: 0, frameGapsOver50: 0, measuring: false });
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) b.longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: false });
      let last = performance.now();
      const tick = (t) => {
        const gap = t - last;
        last = t;
        if (b.measuring) {
          b.maxFrameGap = Math.max(b.maxFrameGap, gap);
          if (gap > 50) b.frameGapsOver50++;
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    })()`);
    const probe = (): Promise<Probe> =>
      frame.evaluate(`(() => {
        const msgs = document.querySelectorAll('.msg');
        const last = msgs[msgs.length - 1];
        return { ...window.__bench, messages: msgs.length, streaming: document.querySelectorAll('.msg.streaming').length, lastLength: last ? last.textContent.length : 0, now: performance.now() };
      })()`);

    await runCommand(page, BENCH);
    const historyDone = await waitFor(async () => {
      const p = await probe();
      return p.messages >= 1001 ? p : undefined;
    }, { timeoutMs: 120_000, intervalMs: 250, what: 'the 1,000 messages of history' });
    await frame.evaluate('window.__bench.measuring = true');
    const streamStart = await waitFor(async () => {
      const p = await probe();
      return p.streaming > 0 ? p : undefined;
    }, { timeoutMs: 60_000, intervalMs: 100, what: 'streaming to start' });
    const done = await waitFor(async () => {
      const p = await probe();
      return p.streaming === 0 && p.messages >= 1002 && p.lastLength > 50_000 ? p : undefined;
    }, { timeoutMs: (20_000 / tps) * 1000 + 120_000, intervalMs: 500, what: 'the 20,000-token answer to finish' });

    const history = done.longTasks.filter((t) => t.start < historyDone.now);
    const streaming = done.longTasks.filter((t) => t.start >= streamStart.now);
    const max = (list: { duration: number }[]) => Math.max(0, ...list.map((t) => t.duration));
    const result = {
      tokensPerSecond: tps,
      streamedChars: done.lastLength,
      streamSeconds: ((done.now - streamStart.now) / 1000).toFixed(1),
      longestTaskWhileStreamingMs: Math.round(max(streaming)),
      longTasksWhileStreaming: streaming.length,
      maxFrameGapWhileStreamingMs: Math.round(done.maxFrameGap),
      frameGapsOver50ms: done.frameGapsOver50,
      longestTaskWhileLoadingHistoryMs: Math.round(max(history)),
    };
    console.log(`    chat rendering: ${JSON.stringify(result)}`);
    recordChatFigure(result.longestTaskWhileStreamingMs);
    // A budget, not the figure: the figure goes to docs/chat.md. Generous for a shared 2-core machine.
    assert.ok(result.longestTaskWhileStreamingMs < 250, `a ${result.longestTaskWhileStreamingMs} ms task while streaming`);
  });
});

/** Keeps the figure for `npm run bench` (its extension rows read .test-tmp/extension-figures.json). */
function recordChatFigure(longestTaskMs: number): void {
  const file = path.join(repoRoot, '.test-tmp', 'extension-figures.json');
  let figures: Record<string, unknown> = {};
  try {
    figures = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    // first figures
  }
  const previous = Array.isArray(figures.chatRenderMs) ? (figures.chatRenderMs as number[]) : [];
  figures.chatRenderMs = [...previous, longestTaskMs].slice(-20);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(figures, null, 2));
}
