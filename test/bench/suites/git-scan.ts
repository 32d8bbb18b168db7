/**
 * The git control scan every confined command pays twice, before and after it (spec 8.1: every
 * repository at any depth of the writable places), in a workspace the size of a real project with
 * its dependencies: 4,000 folders, most of them holding files, one nested repository. `read`: a
 * process's first scan, every folder read; `remembered`: a later one, each folder's listing taken
 * from the last scan while its ctime says it is unchanged (src/core/sandbox/folder-listings.ts).
 * In process, scan by scan, interleaved.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FolderListings } from '../../../src/core/sandbox/folder-listings.js';
import { scanGitControl } from '../../../src/core/sandbox/git-control.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedRatio } from '../stats.js';

export const SCAN_FOLDERS = 4000;

export async function gitScanFigures(ctx: SuiteContext): Promise<Figure[]> {
  const ws = join(ctx.tmp, 'git-scan');
  // 200 packages of 20 folders (a package, its lib/ and src/ trees), 5 files in each folder.
  for (let p = 0; p < SCAN_FOLDERS / 20; p++) {
    for (let d = 0; d < 20; d++) {
      const dir = join(ws, 'node_modules', `pkg-${p}`, ...(d === 0 ? [] : [d % 2 ? 'lib' : 'src', `part-${d}`]));
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 5; f++) writeFileSync(join(dir, `file-${f}.js`), '');
    }
  }
  mkdirSync(join(ws, 'node_modules', 'pkg-7', '.git', 'hooks'), { recursive: true });
  writeFileSync(join(ws, 'node_modules', 'pkg-7', '.git', 'config'), '[core]\n');
  // Folders changed within the last second are read every time (a change in the same clock tick
  // would leave their ctime as it was): a real workspace's folders are older than that.
  await new Promise((done) => setTimeout(done, 1200));
  const remembered = new FolderListings();
  const timed = (listings: () => FolderListings) => async () => {
    const l = listings();
    const t = performance.now();
    const scan = scanGitControl([ws], {}, l);
    const ms = performance.now() - t;
    if (scan.repos.length !== 1 || scan.cutOff) throw new Error(`bench: the scan found ${scan.repos.length} repositories (cut off: ${scan.cutOff})`);
    return ms;
  };
  const read = timed(() => new FolderListings());
  const again = timed(() => remembered);
  for (let i = 0; i < 3; i++) {
    await read();
    await again();
  }
  const s = await interleave(ctx.quick ? 5 : 20, { read, again });
  const note = 'issue 27 sets no number for these rows: they say what a command in a large workspace pays for spec 8.1, twice per command';
  return [
    figure('confinement', 'confinement.git_scan_read', `git control scan of a ${SCAN_FOLDERS}-folder workspace, every folder read (a process's first scan)`, 'ms', s.read, { note }),
    figure('confinement', 'confinement.git_scan_remembered', 'the same scan with the listings the last scan remembered (every later scan)', 'ms', s.again),
    figure('confinement', 'confinement.git_scan_ratio', 'remembered ÷ read (paired)', '×', pairedRatio(s.again, s.read)),
  ];
}
