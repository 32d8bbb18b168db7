/**
 * A stand-in for the `pepe` process in the git exec property test, run under `strace -f -e
 * trace=execve`: either takes checkpoints of a workspace (create, changes, diff, restore) or runs
 * git commands through the real built-in sandbox. Run as: node --import tsx git-exec-host.ts '<json>'
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoints.js';
import { allowListEnv } from '../../../src/core/secrets/scrub.js';
import { BuiltinSandbox } from '../../../src/core/slots/builtin/sandbox.js';

type Request =
  | { op: 'checkpoints'; workspace: string; pepeHome: string; confinement: 'sandbox' | 'off' }
  | { op: 'sandbox'; workspace: string; pepeHome: string; home: string; runs: { cwd: string; argv: string[] }[] };

const request = JSON.parse(process.argv[2]!) as Request;
const out: unknown[] = [];
if (request.op === 'checkpoints') {
  const cp = await Checkpoints.open(request.pepeHome, request.workspace, { confinement: request.confinement });
  const first = await cp.create({ reason: 'turn' });
  writeFileSync(join(request.workspace, 'notes.txt'), 'changed\n');
  const second = await cp.create({ reason: 'turn' });
  out.push(first.skipped, await cp.changes(first.id), (await cp.diff(first.id)).length, (await cp.diff(first.id, second.id)).length);
  out.push((await cp.restore(first.id)).changes);
} else {
  const sandbox = new BuiltinSandbox(() => undefined, { pepeHome: request.pepeHome, home: request.home });
  for (const run of request.runs) {
    const r = await sandbox.run(run.argv[0]!, run.argv.slice(1), { cwd: run.cwd, workspace: request.workspace, env: { ...allowListEnv(process.env), HOME: request.home }, timeoutMs: 20_000 });
    out.push({ status: await sandbox.status(), output: r.output?.slice(0, 200) });
  }
}
process.stdout.write(`${JSON.stringify(out)}\n`);
