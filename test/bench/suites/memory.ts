/**
 * Memory search (issue 8): the built-in occupant over 50 MB of memory files vs `rg -i -F` on the
 * same files (ripgrep's whole process: spawn, search, exit). Warm = files unchanged since the
 * previous search (the built-in's index is reused); cold = a fresh occupant that must read,
 * lower-case and split 50 MB (the files themselves are in the OS page cache for both).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, openSync, writeSync, closeSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createPepe } from '../../../src/core/pepe.js';
import { BuiltinMemory } from '../../../src/core/slots/builtin/memory.js';
import { figure, type Figure, type SuiteContext } from '../figure.js';
import { interleave, pairedRatio } from '../stats.js';
import { rng } from '../../fixtures/routing-fuzz.js';

export const NEEDLE = 'Zanzibar-Quokka';
const WORDS = 'deploy staging billing refund customer invoice the and of to release café naïve schedule backup database index query server client agent memory note meeting friday monday review ticket alert latency cache token budget project'.split(' ');


/** Writes `bytes` of markdown (headings, paragraphs, list items) with the needle in `hits` entries. */
export function writeMemoryFile(path: string, bytes: number, seed: number, hits: number): void {
  const random = rng(seed);
  const fd = openSync(path, 'w');
  let written = 0;
  let chunk = '';
  const every = Math.floor(bytes / (hits + 1));
  let nextHit = every;
  const sentence = () => {
    const n = 6 + Math.floor(random() * 14);
    let s = '';
    for (let i = 0; i < n; i++) s += (i ? ' ' : '') + WORDS[Math.floor(random() * WORDS.length)];
    return s;
  };
  while (written < bytes) {
    const kind = random();
    let block: string;
    if (kind < 0.05) block = `## ${sentence()}\n\n`;
    else if (kind < 0.6) block = `- ${sentence()}\n  ${sentence()}\n`;
    else block = `${sentence()}. ${sentence()}.\n${sentence()}.\n\n`;
    if (written + chunk.length >= nextHit) {
      block = `- note: ${random() < 0.5 ? NEEDLE : NEEDLE.toLowerCase()} seen at ${written}\n`;
      nextHit += every;
    }
    chunk += block;
    if (chunk.length > 1 << 20) {
      written += writeSync(fd, chunk);
      chunk = '';
    }
  }
  if (chunk) writeSync(fd, chunk);
  closeSync(fd);
}

function rg(files: string[]): Promise<{ ms: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn('rg', ['-i', '-F', '--no-config', NEEDLE, ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t;
      if (code !== 0) return reject(new Error(`rg exited ${code}`));
      resolve({ ms, lines: out.split('\n').filter(Boolean).length });
    });
  });
}

export async function memorySuite(ctx: SuiteContext): Promise<Figure[]> {
  const rgVersion = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  if (rgVersion.status !== 0) {
    return [figure('memory', 'memory.warm_ratio', 'warm built-in ÷ rg (paired)', '×', null, { below: 2, targetText: '< 2×', note: 'not measured: ripgrep (rg) is not installed here (Debian package ripgrep)' })];
  }
  const home = join(ctx.tmp, 'memory');
  const dir = join(home, 'agents', 'a');
  mkdirSync(dir, { recursive: true });
  const sizes = { 'MEMORY.md': 30, 'USER.md': 10, 'people.md': 10 } as const;
  let seed = 7;
  for (const [name, mb] of Object.entries(sizes)) writeMemoryFile(join(dir, name), mb * 1024 * 1024, seed++, 4);
  const files = Object.keys(sizes).map((n) => join(dir, n));
  const totalMb = files.reduce((n, f) => n + statSync(f).size, 0) / 1024 / 1024;
  writeFileSafe(join(home, 'config.json'), JSON.stringify({ agents: { a: { model: 'mock' } } }));
  const pepe = await createPepe({ home, env: {} });

  // The runtime's path: the memory slot with nothing configured answers with the built-in.
  const search = (memory: BuiltinMemory) => pepe['slots'].memorySearch('a', NEEDLE, { limit: 20 }, undefined, () => memory.search('a', NEEDLE, { limit: 20 }));
  const first = await search(pepe['builtins'].memory);
  const expected = (await rg(files)).lines;
  if (first.result.length !== expected) throw new Error(`built-in found ${first.result.length} hits, rg ${expected} lines`);
  ctx.log(`memory: ${totalMb.toFixed(1)} MB in 3 files, ${expected} hits for "${NEEDLE}"`);

  const rounds = ctx.quick ? 5 : 21;
  const warm = await interleave(rounds, {
    builtinWarm: async () => {
      const t = performance.now();
      await search(pepe['builtins'].memory);
      return performance.now() - t;
    },
    rg: async () => (await rg(files)).ms,
  });
  const coldRounds = ctx.quick ? 2 : 7;
  const cold = await interleave(coldRounds, {
    builtinCold: async () => {
      const fresh = new BuiltinMemory(pepe.paths.agents);
      const t = performance.now();
      await search(fresh);
      return performance.now() - t;
    },
    rg: async () => (await rg(files)).ms,
  });
  pepe.dispose();
  const ratio = pairedRatio(warm.builtinWarm, warm.rg);
  return [
    figure('memory', 'memory.warm', `built-in search, warm (${totalMb.toFixed(0)} MB, files unchanged)`, 'ms', warm.builtinWarm),
    figure('memory', 'memory.rg', `rg -i -F, whole process (${rgVersion.stdout.split('\n')[0]})`, 'ms', warm.rg),
    figure('memory', 'memory.warm_ratio', 'warm built-in ÷ rg (paired)', '×', ratio, { below: 2, targetText: '< 2×' }),
    figure('memory', 'memory.cold', 'built-in search, cold (fresh index: read + lower-case + split)', 'ms', cold.builtinCold),
    figure('memory', 'memory.cold_ratio', 'cold built-in ÷ rg (paired)', '×', pairedRatio(cold.builtinCold, cold.rg), { note: 'reported, no target' }),
  ];
}

function writeFileSafe(path: string, text: string): void {
  const fd = openSync(path, 'w');
  writeSync(fd, text);
  closeSync(fd);
}
