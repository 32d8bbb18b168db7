/**
 * The import graph of src/ checked against docs/architecture.md with dependency-cruiser: every
 * rule in .dependency-cruiser.cjs (core never imports vscode or a host; the hosts never import each
 * other; the webview imports the core's types only; protocol is a leaf; the runtime never imports
 * the Pepe facade; no cycles). The same rules run over a temporary copy of src/ with forbidden
 * imports added, to show each one is caught.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = join(import.meta.dirname, '../../..');

/**
 * KNOWN VIOLATIONS, TO BE EMPTIED. The refactoring of issue 11 that removes these is in progress
 * in other files; each entry is one violation as `rule: a → b` (for cycles, the whole chain). The
 * test fails on any violation not listed here AND on any entry that no longer occurs, so this list
 * can only shrink. When it is empty, delete it: the rules then hold without exception.
 */
const KNOWN_VIOLATIONS: string[] = [];

/** Runs the project's rules over `<base>/src`; `base` must hold tsconfig.json and node_modules. */
async function violations(base: string): Promise<string[]> {
  const cwd = process.cwd();
  process.chdir(base); // the rules' paths are relative to the folder cruised from
  try {
    const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
    const tsConfig = extractTSConfig(join(base, 'tsconfig.json'));
    const out = await cruise(['src'], { ...options, tsConfig: { fileName: join(base, 'tsconfig.json') } }, {}, { tsConfig });
    const result = out.output as ICruiseResult;
    return result.summary.violations.map(wording).sort();
  } finally {
    process.chdir(cwd);
  }
}

function wording(v: IViolation): string {
  if (v.cycle?.length) return `${v.rule.name}: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')}`;
  return `${v.rule.name}: ${v.from} → ${v.to}`;
}

describe('the import graph (docs/architecture.md, enforced with dependency-cruiser)', function () {
  this.timeout(120_000);

  it('src/ breaks none of the rules (besides the known violations listed above, which may only shrink)', async () => {
    const found = await violations(ROOT);
    const unexpected = found.filter((v) => !KNOWN_VIOLATIONS.includes(v));
    const stale = KNOWN_VIOLATIONS.filter((v) => !found.includes(v));
    assert.deepEqual({ unexpected, stale }, { unexpected: [], stale: [] }, 'new violations must be fixed; stale entries must be removed from KNOWN_VIOLATIONS');
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
