import assert from 'node:assert/strict';
import { figure } from '../../bench/figure.js';
import { summaryTable, verdict } from '../../bench/summary.js';

describe('bench summary table', () => {
  const figures = [
    figure('turn', 'turn.per_step', 'per step', 'ms/step', [0.2, 0.21, 0.22], { below: 0.25, targetText: '< 0.25 ms/step' }),
    figure('turn', 'turn.ratio', 'ratio', '×', [1.5, 1.6, 1.7], { below: 1.3, targetText: '≤ 1.3×' }),
    figure('extension', 'extension.activation', 'activation', 'ms', null, { below: 50, note: 'NOT MEASURED: no integration run' }),
    figure('tasks', 'tasks.create_overhead', 'over plain git', '×', [1.1, 1.2], { summary: true }),
    figure('turn', 'turn.bare', 'bare loop', 'ms', [2, 3]),
  ];
  const table = summaryTable(figures, { loadBefore: '1.0', loadAfter: '2.0', cpuCount: 2 });
  const row = (id: string) => table.split('\n').find((l) => l.startsWith(`${id} `)) ?? '';

  it('gives every targeted row its target, median and result, missed and unmeasured ones included', () => {
    assert.match(row('turn.per_step'), /< 0\.25 ms\/step\s+0\.210 ms\/step\s+met$/);
    assert.match(row('turn.ratio'), /≤ 1\.3×\s+1\.60×\s+MISSED$/);
    assert.match(row('extension.activation'), /< 50 ms\s+—\s+NOT MEASURED$/);
  });

  it('lists a row an issue asks for without a number as reported, and leaves other rows out', () => {
    assert.match(row('tasks.create_overhead'), /none set\s+1\.15×\s+reported$/);
    assert.equal(row('turn.bare'), '');
  });

  it('counts met, missed and not measured apart, and names the load', () => {
    assert.match(table, /1 of 3 targets met, 1 missed, 1 not measured/);
    assert.match(table, /load average 1\.0 before, 2\.0 after, on 2 cores/);
  });

  it('says by how much a target was missed', () => {
    assert.equal(verdict(figures[1]!), '**missed** by 0.30× (23 %)');
    assert.equal(verdict(figures[2]!), '**not measured**');
  });
});
