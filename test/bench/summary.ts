import type { Figure } from './figure.js';

/* The bench's verdicts and its one-screen summary (issue 27), printed by `npm run bench` and put in docs/benchmarks.md. */

export function fmt(n: number, unit: string): string {
  if (!Number.isFinite(n)) return '—';
  const digits = unit === '×' ? 2 : Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : Math.abs(n) >= 1 ? 2 : 3;
  return `${n.toFixed(digits)}${unit === '×' ? '×' : ''}`;
}

export function verdict(f: Figure): string {
  if (!f.target) return '';
  if (!f.stats) return '**not measured**';
  if (f.target.met) return 'met';
  const by = f.stats.median - f.target.below;
  const pct = (f.stats.median / f.target.below - 1) * 100;
  return `**missed** by ${fmt(by, f.unit)} ${f.unit === '×' ? '' : f.unit} (${pct.toFixed(0)} %)`.replace(/\s+\(/, ' (');
}

/**
 * One screen: every figure that has a target, with its median and met / MISSED / not measured,
 * and the few an issue asks for without a number (result "reported").
 */
export function summaryTable(figures: Figure[], machine?: { loadBefore?: unknown; loadAfter?: unknown; cpuCount?: unknown }): string {
  const rows = figures
    .filter((f) => f.target || f.summary)
    .map((f) => [
      f.id,
      f.target?.text ?? 'none set',
      f.stats ? `${fmt(f.stats.median, f.unit)}${f.unit === '×' ? '' : ` ${f.unit}`}` : '—',
      !f.stats ? 'NOT MEASURED' : !f.target ? 'reported' : f.target.met ? 'met' : 'MISSED',
    ]);
  const head = ['figure', 'target', 'median', 'result'];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 2 ? c.padStart(width[i]!) : c.padEnd(width[i]!))).join('  ').trimEnd();
  const targeted = figures.filter((f) => f.target);
  const count = (pred: (f: Figure) => boolean) => targeted.filter(pred).length;
  const tally = `${count((f) => !!f.stats && f.target!.met)} of ${targeted.length} targets met, ${count((f) => !!f.stats && !f.target!.met)} missed, ${count((f) => !f.stats)} not measured`;
  const load = machine ? [`load average ${machine.loadBefore} before, ${machine.loadAfter} after, on ${machine.cpuCount} cores (wall-clock rows carry it)`] : [];
  return ['', line(head), line(width.map((w) => '-'.repeat(w))), ...rows.map(line), '', tally, ...load, ''].join('\n');
}
