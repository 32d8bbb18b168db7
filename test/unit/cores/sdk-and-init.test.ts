import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import ts from 'typescript';
import { registerInitCommand } from '../../../src/cli/commands/init.js';
import type { CliContext } from '../../../src/cli/main.js';
import { build } from 'esbuild';
import { globalDeclarations, PEPE_CORE_DTS } from '../../../src/core/cores/sdk-dts.js';
// @ts-expect-error: a plain JavaScript build script, without type declarations
import { sdkTypesText } from '../../../scripts/sdk-types-text.mjs';
import { cleanup, scaffolded, tempDir, write } from './helpers.js';
import { useStreams } from '../../../src/cli/stdio.js';

const SDK_TYPES = join(import.meta.dirname, '../../../src/core/cores/sdk-types.ts');
const SDK_DTS = join(import.meta.dirname, '../../../src/core/cores/sdk-dts.ts');

async function init(args: string[]): Promise<{ code: number; out: string[]; err: string }> {
  const out: string[] = [];
  let err = '';
  const program = new Command('pepe').exitOverride();
  registerInitCommand(program, { out: (t) => out.push(t), pepe: async () => assert.fail('init needs no Pepe home') } as CliContext);
  // The CLI writes to the file descriptors directly (src/cli/stdio.ts); through the stream, as a
  // command that hands it to readline does, its output reaches the capture below.
  useStreams();
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => {
    err += chunk;
    return true;
  }) as typeof process.stderr.write;
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await program.parseAsync(args, { from: 'user' });
    return { code: Number(process.exitCode ?? 0), out, err };
  } finally {
    process.stderr.write = write;
    process.exitCode = before;
  }
}

describe('agent cores: SDK types and pepe init', () => {
  afterEach(cleanup);

  it('the scaffold d.ts is sdk-types.ts in the PepeCore namespace', () => {
    assert.equal(PEPE_CORE_DTS, globalDeclarations(readFileSync(SDK_TYPES, 'utf8')));
    assert.match(PEPE_CORE_DTS, /^declare namespace PepeCore \{\n  type ContextRole = /m);
    assert.doesNotMatch(PEPE_CORE_DTS, /^\s*export (type|interface) /m);
  });

  it('the bundles carry the declarations made from the real types at build time (no file read at run time)', async () => {
    const out = await build({ entryPoints: [SDK_DTS], bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'silent', plugins: [sdkTypesText] });
    const mod = { exports: {} as { PEPE_CORE_DTS?: string } };
    const refuse = (id: string) => assert.fail(`the bundled declarations needed ${id} at run time`);
    new Function('module', 'exports', 'require', out.outputFiles[0]!.text)(mod, mod.exports, refuse);
    assert.equal(mod.exports.PEPE_CORE_DTS, globalDeclarations(readFileSync(SDK_TYPES, 'utf8')));
  });

  it('the scaffolded modules typecheck against the shipped declarations', () => {
    const dir = scaffolded();
    const config = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(String(d.messageText)) });
    assert.ok(config);
    assert.ok(config.fileNames.some((f) => f.endsWith('pepe-core.d.ts')));
    const program = ts.createProgram(config.fileNames, config.options);
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    assert.deepEqual(diagnostics, []);
  });

  it('pepe init DIR scaffolds a working core; pepe init --check DIR exits 0', async () => {
    const dir = join(tempDir(), 'mycore');
    const made = await init(['init', dir]);
    assert.equal(made.code, 0);
    for (const f of ['agent/pipelines.yaml', 'agent/input/base_input/module.ts', 'agent/input/base_input/slot.yaml', 'agent/output/base_output/module.ts', 'agent/input/example_context/slot.yaml', 'agent/pepe-core.d.ts']) {
      assert.ok(existsSync(join(dir, f)), f);
    }
    assert.match(readFileSync(join(dir, 'agent/pipelines.yaml'), 'utf8'), /# - example_context/);
    const checked = await init(['init', '--check', dir]);
    assert.equal(checked.code, 0);
    assert.match(checked.out.join('\n'), /valid/);
    await assert.rejects(init(['init', dir]), /already exists/);
  });

  it('pepe init --check exits 2 and lists every problem as file:line:column', async () => {
    const dir = scaffolded();
    write(dir, 'agent/input/base_input/slot.yaml', 'entrypoint: module:process\ncolour: red\n');
    write(dir, 'agent/pipelines.yaml', 'schema_version: 2\ninput:\n  serial: [base_input]\n');
    const r = await init(['init', '--check', dir]);
    assert.equal(r.code, 2);
    const lines = r.err.trim().split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /agent\/input\/base_input\/slot\.yaml:2:1: unknown field "colour"/);
    assert.match(lines[1]!, /agent\/pipelines\.yaml:1:17: schema_version must be 1/);
    assert.match(lines[2]!, /2 problems/);
  });
});
