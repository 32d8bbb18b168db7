import { summarize, type Summary } from './stats.js';

export interface Target {
  /** Human wording, e.g. "< 1 ms/step". */
  text: string;
  /** The median must be below this. */
  below: number;
  met: boolean;
}

export interface Figure {
  id: string;
  group: string;
  label: string;
  unit: string;
  /** null: not measured (see note). */
  stats: Summary | null;
  target?: Target;
  note?: string;
  /** In the summary table although it has no target (an issue asks for the figure, not a number). */
  summary?: true;
}

export function figure(group: string, id: string, label: string, unit: string, stats: Summary | number[] | null, opts: { below?: number; targetText?: string; note?: string; summary?: true } = {}): Figure {
  const s = stats === null ? null : Array.isArray(stats) ? summarize(stats) : stats;
  const f: Figure = { id, group, label, unit, stats: s };
  if (opts.below !== undefined) f.target = { text: opts.targetText ?? `< ${opts.below} ${unit}`, below: opts.below, met: s !== null && s.median < opts.below };
  if (opts.note) f.note = opts.note;
  if (opts.summary) f.summary = true;
  return f;
}

export interface SuiteContext {
  /** Fewer rounds (a smoke run of the harness, not figures to publish). */
  quick: boolean;
  /** Scratch directory, removed at the end. */
  tmp: string;
  log: (line: string) => void;
}
