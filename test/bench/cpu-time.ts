import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Whole Node processes timed by their own CPU time (user + system, every thread), as each reports
 * it at exit through a preload written to fd 3 (a pipe only the bench reads). On a machine shared
 * with other work, wall time measures the neighbours as much as the process; CPU time does not
 * (children's CPU, bubblewrap's say, is not in it). Returns a runner: node args → {ms, wallMs, stdout}.
 */
export function cpuTimedNode(tmp: string) {
  const preload = join(tmp, 'cpu-report.cjs');
  writeFileSync(preload, "process.on('exit', () => { const u = process.cpuUsage(); try { require('node:fs').writeSync(3, String((u.user + u.system) / 1000)); } catch {} });\n");
  return (args: string[], opts: SpawnSyncOptions & { input?: string } = {}) => {
    const t = performance.now();
    const r = spawnSync(process.execPath, ['--require', preload, ...args], { ...opts, encoding: 'utf8', input: opts.input ?? '', stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    const wallMs = performance.now() - t;
    return { status: r.status, ms: Number(r.output?.[3] ?? NaN), wallMs, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
  };
}
