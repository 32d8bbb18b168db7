import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPepe, type Pepe } from '../../../src/core/pepe.js';
import type { CreatePepeOptions } from '../../../src/core/facade/create-options.js';

/** A throwaway PEPE_HOME on disk, removed after the test. */
export class TempHome {
  readonly dir = mkdtempSync(join(tmpdir(), 'pepe-test-'));
  private opened: Pepe[] = [];
  private ws: string | null = null;

  /**
   * A workspace of its own, outside PEPE_HOME: the sandbox hides PEPE_HOME from commands, so a
   * test whose commands write files runs them here (as a person's project would be).
   */
  get workspace(): string {
    this.ws ??= mkdtempSync(join(tmpdir(), 'pepe-ws-'));
    return this.ws;
  }

  get config(): string {
    return join(this.dir, 'config.json');
  }

  get plugins(): string {
    return join(this.dir, 'plugins');
  }

  writeConfig(value: unknown): void {
    writeFileSync(this.config, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  }

  writePlugin(fileName: string, source: string): string {
    mkdirSync(this.plugins, { recursive: true });
    const file = join(this.plugins, fileName);
    writeFileSync(file, source);
    return file;
  }

  writeAgentFile(agent: string, fileName: string, text: string): void {
    mkdirSync(join(this.dir, 'agents', agent), { recursive: true });
    writeFileSync(join(this.dir, 'agents', agent, fileName), text);
  }

  async pepe(options: Omit<CreatePepeOptions, 'home'> = {}): Promise<Pepe> {
    const pepe = await createPepe({ home: this.dir, env: {}, ...options });
    this.opened.push(pepe);
    return pepe;
  }

  cleanup(): void {
    for (const p of this.opened) p.dispose();
    rmSync(this.dir, { recursive: true, force: true });
    if (this.ws) rmSync(this.ws, { recursive: true, force: true });
  }
}

interface StallMeter {
  maxGapMs: number;
  maxBlockedMs: number;
  ticks: number;
  stop(): void;
}
const { startStallMeter } = createRequire(import.meta.url)('../../fixtures/faults/stall-meter.cjs') as { startStallMeter(intervalMs?: number): StallMeter };

/**
 * Proves the calling thread stays responsive while a plugin misbehaves. `maxBlockedMs` is how long
 * the thread was really blocked (busy and burning CPU: see stall-meter.cjs), which a busy machine
 * cannot inflate; `maxGapMs` is the wall-clock gap between ticks, for reports.
 */
export class TickMonitor {
  private meter = startStallMeter(5);
  get maxGapMs(): number {
    return this.meter.maxGapMs;
  }
  get maxBlockedMs(): number {
    return this.meter.maxBlockedMs;
  }
  get ticks(): number {
    return this.meter.ticks;
  }
  stop(): void {
    this.meter.stop();
  }
}
