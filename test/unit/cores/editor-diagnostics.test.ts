import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaffoldCore } from '../../../src/core/cores/index.js';
import { checkCoreFolder, checkManifest } from '../../../src/extension/diagnostics/manifest-check.js';

describe('editor diagnostics for agent-core manifests (spec 9.2)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pepe-diag-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reports an unknown slot.yaml field at its line, as the loader does, without running modules', () => {
    const problems = checkManifest(join(dir, 'agent/input/x/slot.yaml'), 'entrypoint: module:process\ncolour: blue\n');
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.match(problems[0]!.message, /colour/);
    assert.equal(problems[0]!.range.startLine, 1);
  });

  it('a valid scaffold has no problems; a broken pipelines.yaml is reported and fixed files are cleared', () => {
    scaffoldCore(dir);
    const clean = checkCoreFolder(dir, false);
    assert.ok(clean.length >= 3, 'every manifest is listed, so old diagnostics clear');
    assert.ok(clean.every((f) => f.problems.length === 0), JSON.stringify(clean));
    writeFileSync(join(dir, 'agent/pipelines.yaml'), 'schema_version: 2\nbootstrap: { parallel: [] }\n');
    const broken = checkCoreFolder(dir, false).find((f) => f.file.endsWith('pipelines.yaml'))!;
    assert.ok(broken.problems.some((p) => /schema_version/.test(p.message)), JSON.stringify(broken));
    assert.ok(broken.problems.some((p) => /serial only/.test(p.message)), JSON.stringify(broken));
  });

  it("a core's agent.yaml capability grants are checked as typed (with a did-you-mean), other agent.yaml files are left alone", () => {
    scaffoldCore(join(dir, 'c2'));
    const file = join(dir, 'c2', 'agent.yaml');
    const problems = checkManifest(file, 'capabilities:\n  defaults:\n    network.fetch: {}\n    netwrk.fetch: {}\n');
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.match(problems[0]!.message, /did you mean "network\.fetch"/);
    assert.equal(problems[0]!.range.startLine, 3);
    assert.deepEqual(checkManifest(join(dir, 'elsewhere', 'agent.yaml'), 'capabilities: 3\n'), []);
  });
});
