/**
 * The risk kinds a call can carry and their one-line labels: a leaf, so the rule modules
 * (command-args, command-rules…) and the classifier (risk.ts) share them without importing each
 * other in a circle.
 */

export const RISK_KINDS = [
  'delete',
  'network',
  'privilege',
  'inline_eval',
  'write',
  'package_install',
  'command_substitution',
  'pipe_to_shell',
  'environment',
  'fork_bomb',
  'hidden_characters',
  'outside_workspace',
  'unknown_command',
  'unclear',
] as const;
export type RiskKind = (typeof RISK_KINDS)[number];

export interface RiskHint {
  kind: RiskKind;
  /** The part of the command that tripped the hint, as written (hidden characters escaped when shown). */
  fragment: string;
  detail?: string;
}

/** One line each, for prompts and docs. */
export const RISK_LABELS: Readonly<Record<RiskKind, string>> = {
  delete: 'deletes files, data or history',
  network: 'uses the network',
  privilege: "runs with another user's rights (sudo, su, doas)",
  inline_eval: 'runs code given as text (sh -c, eval, python -c, node -e…)',
  write: 'writes, moves or changes files (including > and >> redirections)',
  package_install: 'installs or removes packages',
  command_substitution: 'runs a command inside another ($(…), `…`, <(…))',
  pipe_to_shell: 'pipes output into a shell or interpreter (| sh)',
  environment: 'changes variables that decide which code runs (PATH, LD_PRELOAD…)',
  fork_bomb: 'starts copies of itself without end (a fork bomb)',
  hidden_characters: 'contains invisible or control characters (shown escaped)',
  outside_workspace: 'touches files outside the workspace',
  unknown_command: 'runs a program, or uses an option, the barrier does not know to be harmless',
  unclear: 'cannot be read with certainty (expansions, syntax or redirections the barrier does not allow unasked)',
};
