/**
 * The hosts use the facade through its declared surface (facade-surface.ts): its methods, its
 * data, and the listed operations of the service fields named there. Shown to catch a planted
 * reach-past on a small tree of its own.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { reachPasts } from './facade-surface.js';

const ROOT = join(import.meta.dirname, '../../..');

function tree(files: Record<string, string>): string {
  const base = mkdtempSync(join(tmpdir(), 'pepe-facade-'));
  writeFileSync(join(base, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, types: [] }, include: ['src'] }));
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(dirname(join(base, file)), { recursive: true });
    writeFileSync(join(base, file), source);
  }
  return base;
}

const FACADE = `class Store { update(): void {} read(): void {} }
class Sessions { list(): string[] { return []; } appendMessage(): void {} }
export class Pepe {
  readonly store = new Store();
  readonly sessions = new Sessions();
  readonly workspace = '.';
  agentList(): string[] { return []; }
}
`;

describe('the facade surface the hosts use (facade-surface.ts)', function () {
  this.timeout(300_000);
  const bases: string[] = [];
  after(() => { for (const b of bases) rmSync(b, { recursive: true, force: true }); });

  it('no host file in src/ reaches past it', () => {
    assert.deepEqual(reachPasts(ROOT), []);
  });

  it('catches a host reaching into a service that is not part of it, or an operation not listed, whatever the variable is called', () => {
    const base = tree({
      'src/core/pepe.ts': FACADE,
      'src/extension/fine.ts': "import type { Pepe } from '../core/pepe.js';\nexport const ok = (pepe: Pepe) => [pepe.agentList(), pepe.sessions.list(), pepe.workspace];\n",
      'src/cli/planted.ts': "import type { Pepe } from '../core/pepe.js';\nexport const bad = (core: Pepe) => { core.store.update(); core.sessions.appendMessage(); };\n",
    });
    bases.push(base);
    assert.deepEqual(reachPasts(base, { sessions: ['list'] }), [
      'src/cli/planted.ts: pepe.sessions.appendMessage (not an operation of the surface)',
      'src/cli/planted.ts: pepe.store.update (not a service of the surface)',
    ]);
  });
});
