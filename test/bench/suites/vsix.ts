/**
 * The `.vsix` a person installs (issue 14: under 1 MB): built fresh by `npm run package` (minified
 * bundles, the .vscodeignore allow-list) so the figure is of the current sources, never a stale
 * file. The note names the largest entries, so a regression says where it came from.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { builtElsewhere } from '../build.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { ROOT } from './extension.js';

const TARGET_MB = 1;

export async function vsixSuite(ctx: SuiteContext): Promise<Figure[]> {
  const vsix = join(ROOT, 'pepe.vsix');
  const label = '`.vsix` size (built by npm run package in this run)';
  ctx.log('vsix: npm run package …');
  try {
    execFileSync('npm', ['run', 'package'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 16 * 1024 * 1024 });
    // dist/ now holds the package's (fully minified) build; the CLI rows measure `npm run build`'s.
    builtElsewhere();
  } catch (e) {
    builtElsewhere();
    const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim().split('\n').slice(-3).join(' ') ?? String(e);
    return [figure('extension', 'extension.vsix', label, 'MB', null, { below: TARGET_MB, targetText: `< ${TARGET_MB} MB`, note: `not measured: npm run package failed: ${stderr}` })];
  }
  if (!existsSync(vsix)) return [figure('extension', 'extension.vsix', label, 'MB', null, { note: 'not measured: npm run package wrote no pepe.vsix' })];
  const bytes = statSync(vsix).size;
  const mb = bytes / 1024 / 1024;
  return [
    figure('extension', 'extension.vsix', label, 'MB', { n: 1, median: mb, p10: mb, p90: mb, min: mb, max: mb }, {
      below: TARGET_MB,
      targetText: `< ${TARGET_MB} MB`,
      note: `${bytes} bytes; largest entries (uncompressed): ${largestEntries(vsix)}`,
    }),
  ];
}

/** The five largest files in the package (a .vsix is a zip), "extension/dist/extension-core.js 612 KB, …". */
function largestEntries(vsix: string): string {
  try {
    const listing = execFileSync('unzip', ['-l', vsix], { encoding: 'utf8' });
    const rows = listing
      .split('\n')
      .map((l) => /^\s*(\d+)\s+\S+\s+\S+\s+(\S.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null && !m[2]!.endsWith('/'))
      .map((m) => ({ size: Number(m[1]), name: m[2]! }))
      .sort((a, b) => b.size - a.size)
      .slice(0, 5);
    return rows.map((r) => `${r.name} ${Math.round(r.size / 1024)} KB`).join(', ') || 'none listed';
  } catch {
    return 'unknown (no unzip on this machine)';
  }
}
