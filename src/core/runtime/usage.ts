import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PepeConfig, Tier } from '../config/schema.js';
import { appendLine, readJsonLines } from '../jsonl.js';

/** One model call's spend (spec 4.6). */
export interface UsageRecord {
  ts: string;
  agent: string;
  project: string | null;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** The session and turn of the agent whose model call this was (absent in older records). */
  sessionId?: string;
  turnId?: string;
}

export interface ProjectUsage {
  project: string;
  spendUsd: number;
  capUsd: number | null;
  tier: Tier;
  calls: number;
}

const DEFAULT_THRESHOLDS = { low_compute: 0.75, critical: 0.9, dead: 1.0 };

/** `usage.jsonl`: append-only spend records; tiers computed from them on demand. */
export class UsageLedger {
  private readonly listeners = new Set<(r: UsageRecord) => void>();

  constructor(private readonly file: string) {}

  record(r: Omit<UsageRecord, 'ts'>): void {
    const entry: UsageRecord = { ts: new Date().toISOString(), ...r };
    const line = JSON.stringify(entry);
    // The folder is made when the file is not there yet (first record, or removed since), not
    // before every model call (issue 27).
    try {
      appendLine(this.file, line);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      mkdirSync(dirname(this.file), { recursive: true });
      appendLine(this.file, line);
    }
    for (const l of this.listeners) l(entry);
  }

  /** Told of each record as it is written (the chat sums a turn's tokens and cost). */
  onRecord(listener: (r: UsageRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  all(): UsageRecord[] {
    return readJsonLines<UsageRecord>(this.file);
  }

  spend(project: string | null): { spendUsd: number; calls: number } {
    let spendUsd = 0;
    let calls = 0;
    for (const r of this.all()) {
      if (project !== null && r.project !== project) continue;
      spendUsd += r.costUsd;
      calls++;
    }
    return { spendUsd, calls };
  }

  /** Spec 4.6: spend ÷ cap → normal < 0.75 ≤ low_compute < 0.9 ≤ critical < 1.0 ≤ dead. */
  tier(config: PepeConfig, project: string | null | undefined): Tier {
    if (!project) return 'normal';
    return this.projectUsage(config, project).tier;
  }

  projectUsage(config: PepeConfig, project: string): ProjectUsage {
    const p = config.projects?.[project];
    const { spendUsd, calls } = this.spend(project);
    const cap = p?.spend_cap_usd ?? null;
    return { project, spendUsd, capUsd: cap, tier: tierFor(spendUsd, cap, { ...DEFAULT_THRESHOLDS, ...p?.tier_thresholds }), calls };
  }

  tiers(config: PepeConfig): Record<string, string> {
    const out: Record<string, string> = { '': 'normal' };
    for (const project of Object.keys(config.projects ?? {})) out[project] = this.tier(config, project);
    return out;
  }
}

export function tierFor(spend: number, cap: number | null, t: { low_compute: number; critical: number; dead: number }): Tier {
  if (cap === null) return 'normal';
  if (cap === 0) return spend > 0 ? 'dead' : 'normal';
  const ratio = spend / cap;
  if (ratio >= t.dead) return 'dead';
  if (ratio >= t.critical) return 'critical';
  if (ratio >= t.low_compute) return 'low_compute';
  return 'normal';
}
