/**
 * Builds what the VS Code test layers load: the extension itself (dist/, via esbuild.mjs) and the
 * integration suite bundle (test/integration/index.ts + *.test.ts, to CommonJS).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './prereqs';

/** `node esbuild.mjs` in the repository (what `npm run build` does). Throws on failure. */
export function buildExtension(): void {
  if (process.env.PEPE_TEST_SKIP_BUILD === '1' && existsSync(path.join(repoRoot, 'dist', 'extension.js'))) return;
  const res = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit', timeout: 180_000 });
  if (res.error) throw res.error;
  if (res.status !== 0) throw new Error(`building the extension (node esbuild.mjs) failed with exit code ${res.status}`);
  if (!existsSync(path.join(repoRoot, 'dist', 'extension.js'))) throw new Error('dist/extension.js missing after the build');
}

/**
 * Bundles the integration suite into `outDir` (inside the repository, so the bundles resolve
 * `mocha` from its node_modules): `index.js` and `suites/<name>.test.js`. `vscode` stays external
 * (the extension host provides it). Returns the path of index.js.
 */
export async function buildIntegrationBundle(outDir: string): Promise<string> {
  const { build } = await import('esbuild');
  const srcDir = path.join(repoRoot, 'test', 'integration');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'suites'), { recursive: true });
  // The repository is "type": "module"; these bundles are CommonJS (like dist/).
  writeFileSync(path.join(outDir, 'package.json'), JSON.stringify({ type: 'commonjs' }) + '\n');
  const entryPoints: Record<string, string> = { index: path.join(srcDir, 'index.ts') };
  for (const file of readdirSync(srcDir).filter((f) => f.endsWith('.test.ts'))) {
    entryPoints[`suites/${file.replace(/\.ts$/, '')}`] = path.join(srcDir, file);
  }
  await build({
    entryPoints,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return path.join(outDir, 'index.js');
}
