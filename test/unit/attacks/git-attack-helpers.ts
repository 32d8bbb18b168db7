import { execFileSync } from 'node:child_process';
import type { ApprovalRequest, Decision, Prompter } from '../../../src/core/permissions/approval.js';
import { call, harness } from '../permissions/helpers.js';

/** A person who is present and answers "deny" to everything, remembering what was asked. */
export class Denier implements Prompter {
  readonly interactive = true;
  readonly asked: ApprovalRequest[] = [];
  async ask(request: ApprovalRequest): Promise<Decision> {
    this.asked.push(request);
    return { kind: 'deny' };
  }
}

/** git with no user or system configuration of this machine: only the repository's own counts. */
export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' } });

/** What the barrier does with `command` run in `cwd`, with a denying person present. */
export async function judgedByBarrier(home: string, command: string, cwd: string): Promise<{ allowed: boolean; asked: ApprovalRequest[] }> {
  const person = new Denier();
  const h = harness(home, { prompter: person });
  const outcome = await h.barrier.check(call('bash', { command }, { cwd, facts: { cwd } }));
  return { allowed: outcome.allowed, asked: person.asked };
}
