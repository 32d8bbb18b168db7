/**
 * The stall meter the fault suites rely on (test/fixtures/faults/stall-meter.cjs) must tell a
 * thread that is really blocked from a process the machine merely did not schedule: the first is a
 * product defect (in VS Code it would freeze the extension host), the second is the machine.
 * Here both are produced on purpose: a process stopped with SIGSTOP (it gets no CPU for a second:
 * a huge wall-clock gap, nothing blocked) and a process that spins on its main thread until it has
 * burnt a second of CPU (blocked, whatever the load).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { FIXTURES } from './helpers.js';

const METER = join(FIXTURES, 'stall-meter.cjs');

interface Report {
  maxGapMs: number;
  maxBlockedMs: number;
  ticks: number;
}

/**
 * Starts a node child with the meter running; `work` is code run 300 ms in; reports after
 * `doneAfterMs` (0: when a line is written to its stdin). `running` settles once the meter runs (on a loaded machine Node itself can take
 * seconds to start, so the parent's own clock says nothing about where the child is).
 */
function metered(work: string, doneAfterMs: number): { child: ReturnType<typeof spawn>; running: Promise<void>; report: Promise<Report> } {
  const code = `
    const { startStallMeter } = require(${JSON.stringify(METER)});
    const meter = startStallMeter(5);
    process.stdout.write('running\\n');
    setTimeout(() => { ${work} }, 300);
    const done = () => { meter.stop(); process.stdout.write(JSON.stringify(meter)); process.exit(0); };
    // After doneAfterMs of its own, or when the parent says so (a line on stdin).
    ${doneAfterMs > 0 ? `setTimeout(done, ${doneAfterMs});` : ''}
    process.stdin.once('data', done);
  `;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  if (doneAfterMs > 0) child.stdin!.end();
  let out = '';
  let started: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  child.stdout!.on('data', (d) => {
    out += d;
    if (out.startsWith('running\n')) started();
  });
  const report = new Promise<Report>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out.replace(/^running\n/, '')) as Report);
      } catch {
        reject(new Error(`no report: ${out}`));
      }
    });
  });
  return { child, running, report };
}

describe('stall meter: blocked time, not the machine (issue 27)', function () {
  this.timeout(60_000);

  it('a process the machine does not schedule (SIGSTOP for 1 s) shows a long gap and almost no blocked time', async () => {
    const { child, running, report } = metered('', 0);
    await running;
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGSTOP');
    await new Promise((r) => setTimeout(r, 1000));
    child.kill('SIGCONT');
    await new Promise((r) => setTimeout(r, 200));
    child.stdin!.end('done\n');
    const r = await report;
    assert.ok(r.maxGapMs >= 900, `the stop shows as a wall-clock gap: ${JSON.stringify(r)}`);
    assert.ok(r.maxBlockedMs < 250, `but not as blocked time: ${JSON.stringify(r)}`);
  });

  it('a main thread that spins for a second of CPU shows as blocked, however loaded the machine is', async () => {
    const spin = `const t = process.cpuUsage(); while ((process.cpuUsage(t).user + process.cpuUsage(t).system) < 1e6) {}`;
    const { report } = metered(spin, 400);
    const r = await report;
    assert.ok(r.maxBlockedMs >= 900, `a real stall is caught: ${JSON.stringify(r)}`);
  });
});
