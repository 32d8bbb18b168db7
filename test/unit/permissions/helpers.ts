import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApprovalRequest, BarrierEvent, Decision, Prompter } from '../../../src/core/permissions/approval.js';
import { PermissionBarrier } from '../../../src/core/permissions/barrier.js';
import type { BarrierAgentConfig, BarrierOptions, ToolCallCheck } from '../../../src/core/permissions/barrier-types.js';
import { PendingApprovals } from '../../../src/core/permissions/pending.js';
import { newRunState } from '../../../src/core/permissions/run-state.js';

/** A prompter that answers from a script and records what it was asked. */
export class ScriptedPrompter implements Prompter {
  readonly asked: ApprovalRequest[] = [];
  constructor(
    private readonly answers: Array<Decision | ((req: ApprovalRequest, signal?: AbortSignal) => Promise<Decision>)>,
    readonly interactive = true,
  ) {}

  async ask(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision> {
    this.asked.push(request);
    const next = this.answers.shift();
    if (!next) throw new Error(`unexpected prompt for ${request.tool}`);
    return typeof next === 'function' ? next(request, signal) : next;
  }
}

/** A fresh real directory under the OS temp dir; remove it with removeDir. */
export function makeTempDir(prefix = 'pepe-perm-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface Harness {
  barrier: PermissionBarrier;
  events: BarrierEvent[];
  persisted: Array<[string, string]>;
  pending: PendingApprovals;
}

export function harness(dir: string, opts: Partial<BarrierOptions> = {}): Harness {
  const events: BarrierEvent[] = [];
  const persisted: Array<[string, string]> = [];
  const pending = new PendingApprovals(join(dir, 'approvals'));
  const barrier = new PermissionBarrier({
    persistAlwaysAllow: async (agent, tool) => {
      persisted.push([agent, tool]);
    },
    pending,
    onEvent: (e) => events.push(e),
    ...opts,
  });
  return { barrier, events, persisted, pending };
}

export function call(tool: string, args: unknown, over: Partial<ToolCallCheck> & { config?: BarrierAgentConfig } = {}): ToolCallCheck {
  const { config, ...rest } = over;
  return {
    agent: 'billing',
    agentConfig: config ?? {},
    chain: ['triage', 'billing'],
    tool,
    args,
    cwd: '/work/project',
    run: newRunState(),
    ...rest,
  };
}
