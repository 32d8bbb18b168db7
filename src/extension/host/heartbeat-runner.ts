import { join } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors.js';
import type { Pepe } from '../../core/pepe.js';
import type { PulseOutcome } from '../../core/runtime/heartbeat.js';
import { acquireFileLock, FileLockBusyError } from '../../core/file-lock.js';

export interface HeartbeatRunnerDeps {
  log: vscode.LogOutputChannel;
  /** Opens the agent's chat on the pulse's session (the notification's button). */
  openChat: (agent: string, sessionId: string) => void;
  /** How often due pulses are looked for. */
  everyMs?: number;
}

const CHECK_EVERY_MS = 60_000;

/**
 * Runs agents' heartbeats while a window is open (spec 4.7): looks for due pulses when Pepe is
 * built, whenever the configuration changes (an agent just given a heartbeat gets its first pulse
 * now) and once a minute. A pulse's answer lands in the agent's chat as a session of its own and
 * is announced with a notification; HEARTBEAT_OK stays silent.
 *
 * Several windows share one PEPE_HOME: a cross-process lock around each round means a due pulse
 * fires in one window only (the round that loses the lock skips; the schedule file written by the
 * winner then says the pulse is no longer due).
 */
export class HeartbeatRunner implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();
  private pendingRound = false;
  private disposed = false;

  constructor(private readonly pepe: Pepe, private readonly deps: HeartbeatRunnerDeps) {
    this.timer = setInterval(() => this.check(), deps.everyMs ?? CHECK_EVERY_MS);
    this.timer.unref?.();
    this.check();
  }

  /** Looks for due pulses now (queued behind a round already running, never two at once). */
  check(): void {
    if (this.disposed || this.pendingRound) return;
    this.pendingRound = true;
    this.round = this.round.then(async () => {
      this.pendingRound = false;
      if (this.disposed || !this.hasHeartbeats()) return;
      await this.runLocked();
    });
  }

  /** Settles when the rounds asked for so far are done (tests, dispose). */
  idle(): Promise<void> {
    return this.round;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private hasHeartbeats(): boolean {
    return Object.values(this.pepe.config.agents ?? {}).some((a) => a.heartbeat);
  }

  private async runLocked(): Promise<void> {
    const home = this.pepe.paths.home;
    let release: (() => Promise<void>) | undefined;
    try {
      const lock = await acquireFileLock(join(home, 'heartbeat.lock'), { stale: 10 * 60_000, retries: 0 });
      release = () => lock.release();
    } catch (e) {
      // Held: another window is running this round. Anything else is worth a line in the log.
      if (!(e instanceof FileLockBusyError)) this.deps.log.warn(`heartbeat: could not take ${join(home, 'heartbeat.lock')}: ${errorMessage(e)}`);
      return;
    }
    try {
      const outcomes = await this.pepe.heartbeatRunDue();
      for (const outcome of outcomes) this.report(outcome);
    } catch (e) {
      this.deps.log.error(`heartbeat: ${errorMessage(e)}`);
    } finally {
      await release().catch(() => undefined);
    }
  }

  private report(o: PulseOutcome): void {
    const { log } = this.deps;
    switch (o.outcome) {
      case 'vetoed':
        log.info(`heartbeat ${o.agent}: not due per ${o.by}`);
        return;
      case 'quiet':
        log.info(`heartbeat ${o.agent}: nothing to report`);
        return;
      case 'failed':
        log.warn(`heartbeat ${o.agent}: failed: ${o.error}`);
        return;
      case 'delivered': {
        log.info(`heartbeat ${o.agent}: answered in session ${o.sessionId}`);
        const firstLine = o.content.trim().split('\n')[0] ?? '';
        const preview = firstLine.length > 140 ? `${firstLine.slice(0, 139)}…` : firstLine;
        void vscode.window.showInformationMessage(`${o.agent} (heartbeat): ${preview}`, 'Open Chat').then((choice) => {
          if (choice === 'Open Chat') this.deps.openChat(o.agent, o.sessionId);
        });
      }
    }
  }
}
