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
  'code',
  'control_file',
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
  code: 'runs a program, loads code or configuration, or points the program at another repository or configuration (through an option, a hook or a variable)',
  control_file: 'changes what git, your editor, your shell or npm runs later (git control files, editor tasks and settings, shell start-up files, package hooks)',
};

/**
 * Risks no grant scoped to risks covers (spec 5.2): a person who allowed "calls that use the
 * network" did not allow a program chosen by an option or a hook. Only a grant for exactly that
 * call, or for the tool with any arguments, covers them.
 */
export const EXACT_OR_ANY_RISKS: ReadonlySet<RiskKind> = new Set<RiskKind>(['code', 'environment']);

/**
 * Risks only a grant for exactly that call covers: not "any arguments", not "*", not the bypass.
 * A change to a file that decides what runs outside the sandbox later is shown and judged each time.
 */
export const EXACT_ONLY_RISKS: ReadonlySet<RiskKind> = new Set<RiskKind>(['control_file']);

/** Whether a grant scoped to risks (`bash:network`, "this task", "this session, these risks") may cover a call with `risks`. */
export const scopedGrantMayCover = (risks: readonly RiskKind[]): boolean => !risks.some((r) => EXACT_OR_ANY_RISKS.has(r) || EXACT_ONLY_RISKS.has(r));

/** Whether a grant for the tool with any arguments (a bare name, "*", the bypass) may cover a call with `risks`. */
export const anyArgumentsMayCover = (risks: readonly RiskKind[]): boolean => !risks.some((r) => EXACT_ONLY_RISKS.has(r));
