/**
 * The hosts use the facade through its methods and its read-only data only (facade-surface.ts).
 * Shown to catch planted reach-pasts on a small tree of its own, the compiler's way round
 * `protected` (bracket access) and destructuring included.
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

const FACADE = `class Store { update(): void {} }
class Sessions { list(): string[] { return []; } }
abstract class Wiring {
  readonly workspace = '.';
  protected readonly store = new Store();
  protected readonly sessions = new Sessions();
  /** Left public by mistake: the checker still refuses it to a host. */
  readonly mcp = { stop(): void {} };
}
export class Pepe extends Wiring {
  get config(): object { return {}; }
  sessionList(): string[] { return this.sessions.list(); }
}
`;

describe('the facade surface the hosts use (facade-surface.ts)', function () {
  this.timeout(300_000);
  const bases: string[] = [];
  after(() => { for (const b of bases) rmSync(b, { recursive: true, force: true }); });

  it('no host file in src/ reaches past it', () => {
    assert.deepEqual(reachPasts(ROOT), []);
  });

  it('lets a host call methods and read data, whatever the variable holding the facade is called', () => {
    const base = tree({
      'src/core/pepe.ts': FACADE,
      'src/extension/fine.ts': "import type { Pepe } from '../core/pepe.js';\nexport const ok = (core: Pepe) => { const { config, workspace } = core; return [core.sessionList(), core.workspace, core.config, config, workspace, core.sessionList.bind(core)]; };\n",
      'src/core/inside.ts': "import type { Pepe } from './pepe.js';\nexport const inside = (pepe: Pepe) => pepe['store'].update();\n",
    });
    bases.push(base);
    assert.deepEqual(reachPasts(base), []);
  });

  it('fails on a planted reach-past: a field, bracket access, destructuring (in a declaration or a parameter), a cast and a type naming a part', () => {
    const base = tree({
      'src/core/pepe.ts': FACADE,
      'src/cli/planted.ts': [
        "import type { Pepe } from '../core/pepe.js';",
        'export const field = (core: Pepe) => core.mcp.stop();',
        "export const bracket = (core: Pepe) => core['store'].update();",
        'export const declared = (core: Pepe) => { const { sessions, config } = core; return [sessions, config]; };',
        'export const param = ({ store }: Pepe) => store;',
        'export const rest = (core: Pepe) => { const { ...all } = core; return all; };',
        'export const cast = (core: Pepe) => (core as unknown as { store: unknown }).store;',
        "export type Part = Pepe['sessions'];",
        "export type Keyed = Pepe[keyof Pepe];",
        "export type Fine = Pepe['sessionList'] | Pepe['config'];",
        '',
      ].join('\n'),
    });
    bases.push(base);
    assert.deepEqual(reachPasts(base), [
      "src/cli/planted.ts: Pepe['sessions'] (a type named from the facade's parts)",
      "src/cli/planted.ts: Pepe[keyof Pepe] (a type named from the facade's parts)",
      "src/cli/planted.ts: pepe as unknown (the facade cast to another type)",
      "src/cli/planted.ts: pepe.mcp.stop (not a method of the facade)",
      "src/cli/planted.ts: pepe['store'] (element access on the facade)",
      'src/cli/planted.ts: { ...all } = pepe (destructured from the facade)',
      'src/cli/planted.ts: { sessions } = pepe (destructured from the facade)',
      'src/cli/planted.ts: { store } = pepe (destructured from the facade)',
    ]);
  });
});
