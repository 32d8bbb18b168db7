/**
 * The import graph of src/ checked against docs/architecture.md with dependency-cruiser: every
 * rule in .dependency-cruiser.cjs (core never imports vscode or a host; the hosts never import each
 * other; the webview imports the core's types only; protocol is a leaf; the runtime never imports
 * the Pepe facade; no cycles), and the layers of src/core (core-layers.ts: no import from a lower
 * layer to a higher one, no cycle between folders). The same rules run over a temporary copy of
 * src/ with forbidden imports added, and the layer rule over a small tree of its own, to show each
 * one is caught.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { layerViolations } from './core-layers.js';

const ROOT = join(import.meta.dirname, '../../..');

/** Cruises `<base>/src` with the project's rules; `base` must hold tsconfig.json and node_modules. */
async function cruiseSrc(base: string): Promise<ICruiseResult> {
  const cwd = process.cwd();
  process.chdir(base); // the rules' paths are relative to the folder cruised from
  try {
    const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
    const tsConfig = extractTSConfig(join(base, 'tsconfig.json'));
    const out = await cruise(['src'], { ...options, tsConfig: { fileName: join(base, 'tsconfig.json') } }, {}, { tsConfig });
    return out.output as ICruiseResult;
  } finally {
    process.chdir(cwd);
  }
}

/** Every broken rule, the dependency-cruiser ones and the layers of src/core, one line each. */
async function violations(base: string): Promise<string[]> {
  const result = await cruiseSrc(base);
  return [...result.summary.violations.map(wording), ...layerViolations(result.modules)].sort();
}

/** A tree of its own beside the project: tsconfig.json, node_modules and the given files under src/. */
function tree(files: Record<string, string>): string {
  const base = mkdtempSync(join(tmpdir(), 'pepe-layers-'));
  writeFileSync(join(base, 'tsconfig.json'), readFileSync(join(ROOT, 'tsconfig.json')));
  symlinkSync(join(ROOT, 'node_modules'), join(base, 'node_modules'), 'dir');
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(dirname(join(base, file)), { recursive: true });
    writeFileSync(join(base, file), source);
  }
  return base;
}

function wording(v: IViolation): string {
  if (v.cycle?.length) return `${v.rule.name}: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')}`;
  return `${v.rule.name}: ${v.from} → ${v.to}`;
}

describe('the import graph (docs/architecture.md, enforced with dependency-cruiser)', function () {
  this.timeout(120_000);

  it('src/ breaks none of the rules, the layers of src/core included', async () => {
    assert.deepEqual(await violations(ROOT), []);
  });

  describe('the layer rule, on a small tree of its own', () => {
    const clean = {
      'src/core/errors.ts': 'export class PepeError extends Error {}\n',
      'src/core/config/schema.ts': "import { PepeError } from '../errors.js';\nexport const schema = () => PepeError;\n",
      'src/core/models/provider.ts': "import { schema } from '../config/schema.js';\nexport const provider = () => schema;\n",
      'src/core/plugins/registry.ts': "import { provider } from '../models/provider.js';\nexport const registry = () => provider;\n",
      'src/core/runtime/turn.ts': "import type { PepeError } from '../errors.js';\nimport { registry } from '../plugins/registry.js';\nexport const turn = (e?: PepeError) => [registry, e];\n",
    };
    const bases: string[] = [];
    const layers = async (files: Record<string, string>) => {
      const base = tree(files);
      bases.push(base);
      return layerViolations((await cruiseSrc(base)).modules);
    };
    after(() => { for (const b of bases) rmSync(b, { recursive: true, force: true }); });

    it('finds nothing in a tree that keeps the order (downward imports, type-only ones included)', async () => {
      assert.deepEqual(await layers(clean), []);
    });

    it('catches a planted upward import, type-only included, and the folder cycle it makes', async () => {
      const found = await layers({ ...clean, 'src/core/config/schema.ts': "import type { turn } from '../runtime/turn.js';\nexport const schema = (t?: typeof turn) => t;\n" });
      assert.ok(found.includes('upward: src/core/config/schema.ts (config) → src/core/runtime/turn.ts (runtime)'), found.join('; '));
      assert.ok(found.some((v) => /^folder-cycle \(among src\/core\/config\/, src\/core\/models\/, src\/core\/plugins\/, src\/core\/runtime\/\): /.test(v)), found.join('; '));
    });

    it('catches a planted cycle between two folders of one layer (no import runs upward)', async () => {
      const found = await layers({ ...clean, 'src/core/models/provider.ts': "import { registry } from '../plugins/registry.js';\nexport const provider = () => registry;\n", 'src/core/plugins/registry.ts': "import { schema } from '../config/schema.js';\nimport { provider } from '../models/provider.js';\nexport const registry = () => [schema, provider];\n" });
      assert.deepEqual(found, ['folder-cycle (among src/core/models/, src/core/plugins/): src/core/models/ → src/core/plugins/ → src/core/models/']);
    });

    it('names a folder that belongs to no layer', async () => {
      const found = await layers({ ...clean, 'src/core/gadgets/thing.ts': "import { schema } from '../config/schema.js';\nexport const thing = schema;\n" });
      assert.deepEqual(found, ['unplaced: src/core/gadgets/']);
    });
  });

  describe('catches a forbidden import added to a copy of src/', () => {
    let base: string;
    let original: string[];
    before(async () => {
      base = mkdtempSync(join(tmpdir(), 'pepe-graph-'));
      cpSync(join(ROOT, 'src'), join(base, 'src'), { recursive: true });
      writeFileSync(join(base, 'tsconfig.json'), readFileSync(join(ROOT, 'tsconfig.json')));
      symlinkSync(join(ROOT, 'node_modules'), join(base, 'node_modules'), 'dir');
      original = await violations(base);
    });
    after(() => rmSync(base, { recursive: true, force: true }));

    const cases: { rule: string; file: string; source: string; expect: RegExp }[] = [
      { rule: 'core-not-to-vscode', file: 'src/core/bad-vscode.ts', source: "import * as vscode from 'vscode';\nexport const x = vscode;\n", expect: /^core-not-to-vscode: src\/core\/bad-vscode\.ts → (vscode|\S*node_modules\/@types\/vscode\/index\.d\.ts)$/ },
      { rule: 'core-not-to-hosts', file: 'src/core/bad-host.ts', source: "import { buildProgram } from '../cli/main.js';\nexport const x = buildProgram;\n", expect: /^core-not-to-hosts: src\/core\/bad-host\.ts → src\/cli\/main\.ts$/ },
      { rule: 'core-not-to-hosts (webview)', file: 'src/core/bad-webview.ts', source: "export * from '../webview/main.js';\n", expect: /^core-not-to-hosts: src\/core\/bad-webview\.ts → src\/webview\/main\.ts$/ },
      { rule: 'cli-not-to-extension', file: 'src/cli/bad.ts', source: "import { activate } from '../extension/activate.js';\nexport const x = activate;\n", expect: /^cli-not-to-extension: src\/cli\/bad\.ts → src\/extension\/activate\.ts$/ },
      { rule: 'extension-not-to-cli', file: 'src/extension/bad.ts', source: "import { main } from '../cli/main.js';\nexport const x = main;\n", expect: /^extension-not-to-cli: src\/extension\/bad\.ts → src\/cli\/main\.ts$/ },
      { rule: 'webview-not-to-core-at-run-time', file: 'src/webview/bad.ts', source: "import { UsageError } from '../core/errors.js';\nexport const x = UsageError;\n", expect: /^webview-not-to-core-at-run-time: src\/webview\/bad\.ts → src\/core\/errors\.ts$/ },
      { rule: 'protocol-is-a-leaf', file: 'src/protocol/bad.ts', source: "import type { PepeConfig } from '../core/config/schema.js';\nexport type X = PepeConfig;\n", expect: /^protocol-is-a-leaf: src\/protocol\/bad\.ts → src\/core\/config\/schema\.ts$/ },
      { rule: 'runtime-not-to-facade', file: 'src/core/runtime/bad.ts', source: "import type { Pepe } from '../pepe.js';\nexport type X = Pepe;\n", expect: /^runtime-not-to-facade: src\/core\/runtime\/bad\.ts → src\/core\/pepe\.ts$/ },
      { rule: 'no-cycles', file: 'src/core/bad-cycle-a.ts', source: "import { b } from './bad-cycle-b.js';\nexport const a = () => b;\n", expect: /^no-cycles: src\/core\/bad-cycle-(a|b)\.ts → src\/core\/bad-cycle-(a|b)\.ts → src\/core\/bad-cycle-(a|b)\.ts$/ },
    ];

    it('adds nothing by itself: the copy has the same violations as src/', async () => {
      assert.deepEqual(original, await violations(ROOT));
    });

    it('every rule fires on its forbidden import (and a type-only import from the webview is allowed)', async () => {
      for (const c of cases) {
        mkdirSync(dirname(join(base, c.file)), { recursive: true });
        writeFileSync(join(base, c.file), c.source);
      }
      writeFileSync(join(base, 'src/core/bad-cycle-b.ts'), "import { a } from './bad-cycle-a.js';\nexport const b = () => a;\n");
      writeFileSync(join(base, 'src/webview/fine.ts'), "import type { PepeError } from '../core/errors.js';\nexport type X = PepeError;\n");
      const added = (await violations(base)).filter((v) => !original.includes(v));
      for (const c of cases) assert.ok(added.some((v) => c.expect.test(v)), `${c.rule} was not caught; new violations: ${added.join('; ')}`);
      assert.ok(!added.some((v) => v.includes('src/webview/fine.ts')), `a type-only import from the webview was refused: ${added.join('; ')}`);
    });
  });
});
