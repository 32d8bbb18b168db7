import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApprovalRequest, Decision, Prompter } from '../../../src/core/permissions/approval.js';
import { loadShellGrammar } from '../../../src/core/permissions/bash-grammar.js';
import { call, harness, makeTempDir, removeDir } from '../permissions/helpers.js';
import { recordAttacks } from './record.js';

/**
 * Review of the allow-list: commands it judged harmless that write or run a project's own code.
 * - a glob is a plain word but may become several: `uniq a*` is `uniq a1 a2`, which overwrites a2;
 * - `cargo --version` / `rustc --version` go through rustup's proxies, which read the project's
 *   rust-toolchain.toml; a toolchain `path` of `/proc/self/cwd/<folder>` runs the project's program.
 */

class Denier implements Prompter {
  readonly interactive = true;
  readonly asked: ApprovalRequest[] = [];
  async ask(request: ApprovalRequest): Promise<Decision> {
    this.asked.push(request);
    return { kind: 'deny' };
  }
}

describe('review: allow-listed commands that write or run project code', function () {
  recordAttacks('allow-list review attacks', 'asked with a person who denies everything');
  this.timeout(20_000);
  let dir: string;
  before(() => loadShellGrammar());
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => removeDir(dir));

  async function mustAsk(command: string): Promise<void> {
    const person = new Denier();
    const h = harness(dir, { prompter: person });
    const outcome = await h.barrier.check(call('bash', { command }, { cwd: dir, facts: { cwd: dir } }));
    assert.equal(outcome.allowed, false, `${JSON.stringify(command)} ran without asking`);
    assert.equal(person.asked.length, 1, `${JSON.stringify(command)}: the person was not asked`);
  }

  it('the hazard is real: `uniq a*` overwrites the second file the glob matches', () => {
    writeFileSync(join(dir, 'a1'), 'x\nx\n');
    writeFileSync(join(dir, 'a2'), 'precious\n');
    execFileSync('bash', ['-c', 'uniq a*'], { cwd: dir });
    assert.equal(readFileSync(join(dir, 'a2'), 'utf8'), 'x\n');
  });

  for (const command of ['uniq a*', 'uniq -c -- notes?', 'uniq [ab]1']) it(`${JSON.stringify(command)} is asked`, () => mustAsk(command));

  it('a glob stays free where it cannot add an operand that matters (`ls a*`, `grep -l x a*`)', async () => {
    for (const command of ['ls a*', 'grep -l x a*', 'wc -l src/*.ts']) {
      const h = harness(dir, { prompter: new Denier() });
      const outcome = await h.barrier.check(call('bash', { command }, { cwd: dir, facts: { cwd: dir } }));
      assert.equal(outcome.allowed, true, command);
    }
  });

  it('the hazard is real where rustup is installed: `cargo --version` runs the project\'s toolchain', function () {
    if (spawnSync('rustup', ['--version'], { stdio: 'ignore' }).status !== 0) this.skip();
    const marker = join(dir, 'toolchain-ran');
    mkdirSync(join(dir, 'evil/bin'), { recursive: true });
    for (const p of ['cargo', 'rustc']) {
      writeFileSync(join(dir, 'evil/bin', p), `#!/bin/sh\ntouch '${marker}'\n`);
      chmodSync(join(dir, 'evil/bin', p), 0o755);
    }
    writeFileSync(join(dir, 'rust-toolchain.toml'), '[toolchain]\npath = "/proc/self/cwd/evil"\n');
    spawnSync('cargo', ['--version'], { cwd: dir, stdio: 'ignore' });
    assert.ok(existsSync(marker), 'rustup did not run the project toolchain');
  });

  for (const command of ['cargo --version', 'rustc --version']) it(`${JSON.stringify(command)} is asked`, () => mustAsk(command));

  it('run_script with a program named like an assignment (`X=1` + [ls]) is judged as that program, not as `ls`: asked', async () => {
    const person = new Denier();
    const h = harness(dir, { prompter: person });
    const outcome = await h.barrier.check(call('run_script', { program: 'X=1', args: ['ls'] }, { cwd: dir, facts: { cwd: dir } }));
    assert.equal(outcome.allowed, false, 'run_script X=1 ran without asking');
    assert.equal(person.asked.length, 1);
  });

  // Open (see "Known limits" in docs/security.md): a grant for the risks shown with `npm test`
  // is `bash:unknown_command`, and that kind is every program the barrier cannot judge, so it also
  // covers `bash x.sh`, `python3 x.py` or `kill -9 1`. Enable when unknown_command grants are
  // scoped to the program the person saw.
  it('a session grant given for `npm test` does not cover another unknown program', async () => {
    let answers: Decision[] = [{ kind: 'allow_session_risks' }];
    const person: Prompter & { asked: string[] } = {
      interactive: true,
      asked: [],
      async ask(r) {
        this.asked.push((r.args as { command: string }).command);
        return answers.shift() ?? { kind: 'deny' };
      },
    };
    const h = harness(dir, { prompter: person });
    const first = await h.barrier.check(call('bash', { command: 'npm test' }, { cwd: dir, facts: { cwd: dir } }));
    assert.equal(first.allowed, true);
    answers = [];
    const second = await h.barrier.check(call('bash', { command: 'python3 steal.py' }, { cwd: dir, facts: { cwd: dir } }));
    assert.equal(second.allowed, false, 'the grant for npm test ran python3 steal.py unasked');
  });
});
