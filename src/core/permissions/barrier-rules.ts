import type { AllowDecision, ApprovalRequest } from './approval.js';
import type { BarrierAgentConfig, ToolCallCheck } from './barrier-types.js';
import { repositoryConfigRisk } from './git-config.js';
import { entryCovers } from './grant-scope.js';
import type { RiskKind, ShellVerdict } from './risk.js';
import { secretFilesOf, shellReachesOutside } from './secret-files.js';
import { classifyTool } from './tool-classes.js';

/* The barrier's rules about one call that need no barrier state: auto_approve, narrowed answers, marking what a call read, git's repository configuration. */

/**
 * A wider answer than the call allows (spec 5.2): "always, these risks" for a call that runs a
 * program through an option covers only that exact call. Null when the answer stands as given.
 */
export function narrowDecision(decision: AllowDecision, narrowest: ApprovalRequest['narrowest']): string | null {
  if (!narrowest || decision.kind === 'allow_once' || decision.kind === 'allow_session' || decision.kind === 'bypass_session') return null;
  const anyOk = narrowest === 'exact_or_any' && (decision.kind === 'allow_session_any' || decision.kind === 'always_any');
  if (anyOk) return null;
  return narrowest === 'exact'
    ? 'allowed for this exact call only (for the rest of the session): it changes a file that decides what runs later, and no wider grant covers that'
    : 'allowed for this exact call only (for the rest of the session): it runs a program through an option, a hook or a variable, which no grant for "calls with these risks" covers; answer "any arguments" to stop being asked about this tool';
}

/** Whether the agent's `auto_approve` covers a call of `tool` carrying `risks` ("*", a bare name, or a scoped entry). */
export function isAutoApproved(config: BarrierAgentConfig, tool: string, risks: readonly RiskKind[] = []): boolean {
  return autoApproveEntry(config, tool, risks) !== null;
}

export function autoApproveEntry(config: BarrierAgentConfig, tool: string, risks: readonly RiskKind[], programs: readonly string[] = []): string | null {
  const list = config.auto_approve;
  if (list === undefined) return null;
  if (list === '*') return '*';
  return list.find((e) => entryCovers(e, tool, risks, programs)) ?? null;
}

/**
 * An allowed call that reads or names a secret-looking file, or a command that names a place
 * outside its folder, marks the run: outbound channels ask from then on.
 */
export function noteSecretFiles(call: ToolCallCheck): void {
  if (classifyTool(call.tool).kind === 'shell' && shellReachesOutside(call.tool, call.args, call.facts?.cwd ?? call.cwd)) call.run.readOutsideWorkspace = true;
  const found = secretFilesOf(call.tool, call.args, call.facts?.paths ?? []);
  if (found.length === 0) return;
  const list = (call.run.secretFiles ??= []);
  for (const f of found) if (!list.includes(f)) list.push(f);
}

export function isFileReadOutside(call: ToolCallCheck): boolean {
  return (call.tool === 'read_file' || call.tool === 'list_dir') && (call.facts?.paths ?? []).some((p) => !p.inside);
}

export function chainOf(call: ToolCallCheck): string[] {
  const chain = [...(call.chain ?? [])];
  if (chain[chain.length - 1] !== call.agent) chain.push(call.agent);
  return chain;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

const CHANGES_FOLDER = ['cd', 'pushd', 'popd'];

/**
 * git's read-only subcommands are harmless only in a repository whose own configuration names no
 * program for git to run (git-config.ts); that needs the disk, so it is judged here and not by the
 * classifier. After a `cd` the repository is another one the barrier did not read: asked too.
 */
export function withRepositoryConfig(verdict: ShellVerdict, cwd: string): ShellVerdict {
  if (!verdict.programs?.includes('git')) return verdict;
  let why = repositoryConfigRisk(cwd);
  if (!why && verdict.hints.length === 0 && verdict.programs.some((p) => CHANGES_FOLDER.includes(p))) {
    why = 'git runs after a change of folder, in a repository whose configuration the barrier did not read';
  }
  if (!why) return verdict;
  return { ...verdict, hints: [...verdict.hints, { kind: 'inline_eval', fragment: 'git', detail: why }] };
}
