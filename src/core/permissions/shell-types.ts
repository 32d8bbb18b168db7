/** What a bash command line reads as (shell-syntax.ts, plain-command.ts): words, commands, substitutions, problems. */

export interface ShellWord {
  /** The value after quote removal; expansions are kept as written (`$HOME`). */
  text: string;
  /** As written in the source. */
  raw: string;
  /** Contains an expansion whose value is unknown here ($x, ${x}, $(…), `…`, $((…)), <(…), {a,b}). */
  dynamic: boolean;
  /** Starts with an unquoted glob character, so it may expand to something like `-i`. */
  globStart: boolean;
  /** A plain word: its value is exactly `text`, printable, and cannot turn into anything else. */
  plain: boolean;
}

export interface ShellRedirect {
  op: string;
  /** The explicit file descriptor (`2>`), if any. */
  fd: string | null;
  /** The target word; null for here-documents, here-strings and descriptor closes. */
  target: ShellWord | null;
  raw: string;
}

export interface SimpleCommand {
  /** Leading assignments (`A=1`), the program and its arguments, in order. */
  words: ShellWord[];
  redirects: ShellRedirect[];
  raw: string;
  /** Reads the previous command's output (`a | this`). */
  pipedFrom: boolean;
}

export type SubstitutionKind = '$(' | '`' | '<(' | '>(' | '$((';

export interface Substitution {
  kind: SubstitutionKind;
  raw: string;
}

export interface ShellProblem {
  fragment: string;
  reason: string;
}

export interface ParsedShell {
  /** Every simple command, including those inside substitutions and compound commands. */
  commands: SimpleCommand[];
  substitutions: Substitution[];
  /** What the grammar could not parse, or too deep to follow: the line is unclear. */
  problems: ShellProblem[];
  /** Syntax outside the harmless subset (simple commands joined by && || ; |); not a risk by itself. */
  constructs: ShellProblem[];
  /** Function definitions whose body calls the function again in a pipeline or the background. */
  forkBombs: string[];
}
