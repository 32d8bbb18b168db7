import type { CommandView, RuleContext } from './command-args.js';
import { ASSIGNMENT, DANGEROUS_ENV, HARMLESS_COMMANDS, ruleFor } from './command-rules.js';
import { parseShell, type ShellRedirect, type ShellWord, type SimpleCommand } from './shell-syntax.js';
import { preview, shellQuote } from './display.js';

/**
 * Risk hints for shell commands (spec 5.1). A `bash` or `run_script` call with no hint, while a
 * person is present and the run has taken in no outside content, runs without a prompt; any hint
 * sends it to the person. The reading is conservative: whatever the barrier cannot follow (odd
 * quoting, a program it does not know, an expansion where an option could hide) is a hint too.
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
  'unknown_command',
  'unclear',
] as const;
export type RiskKind = (typeof RISK_KINDS)[number];

export interface RiskHint {
  kind: RiskKind;
  /** The part of the command that tripped the hint, as written. */
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
  unknown_command: 'runs a program the barrier does not know to be harmless',
  unclear: 'cannot be read with certainty (quoting, expansions or syntax the barrier does not follow)',
};

/** Hints for a command line run through a shell (the `bash` tool). */
export function shellRiskHints(commandLine: string): RiskHint[] {
  const c = new Collector();
  c.script(commandLine);
  return c.hints;
}

/** Hints for a program run directly with an argument vector, no shell (the `run_script` tool). */
export function scriptRiskHints(program: string, argv: readonly string[]): RiskHint[] {
  const c = new Collector();
  const words = [program, ...argv].map(literalWord);
  c.inner(words, [program, ...argv].map(shellQuote).join(' '));
  return c.hints;
}

/**
 * Hints for a shell tool call from its arguments: `bash {command}` and
 * `run_script {program, argv | args}`. Arguments of any other shape are `unclear`.
 */
export function toolRiskHints(tool: string, args: unknown): RiskHint[] {
  const a = (args ?? {}) as Record<string, unknown>;
  if (tool === 'bash') {
    if (typeof a.command === 'string') return shellRiskHints(a.command);
    return [{ kind: 'unclear', fragment: preview(args, MAX_FRAGMENT), detail: 'bash was called without a command string' }];
  }
  if (tool === 'run_script') {
    const argv = a.argv ?? a.args ?? [];
    if (typeof a.program === 'string' && Array.isArray(argv) && argv.every((x) => typeof x === 'string')) return scriptRiskHints(a.program, argv as string[]);
    return [{ kind: 'unclear', fragment: preview(args, MAX_FRAGMENT), detail: 'run_script was called without a program and a list of string arguments' }];
  }
  return [];
}

// ---------------------------------------------------------------------------------------------

const MAX_DEPTH = 8;
const MAX_FRAGMENT = 200;
/** Reserved words that open or close a compound command; the command proper follows them. */
const KEYWORDS = new Set(['!', '{', '}', 'then', 'else', 'elif', 'do', 'done', 'fi', 'esac', 'if', 'while', 'until']);
const OUTPUT_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/fd/1', '/dev/fd/2']);
const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$|^\/opt\/homebrew\/bin\/[^/]+$/;

class Collector implements RuleContext {
  readonly hints: RiskHint[] = [];
  private readonly seen = new Set<string>();
  private depth = 0;

  hint(kind: RiskKind, fragment = '', detail?: string): void {
    const f = fragment.length > MAX_FRAGMENT ? fragment.slice(0, MAX_FRAGMENT - 1) + '…' : fragment;
    const key = `${kind}\u0000${f}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.hints.push(detail === undefined ? { kind, fragment: f } : { kind, fragment: f, detail });
  }

  script(code: string): void {
    this.nested(code, () => {
      const parsed = parseShell(code);
      for (const p of parsed.problems) this.hint('unclear', p.fragment, p.reason);
      for (const s of parsed.substitutions) this.hint('command_substitution', s.raw);
      for (const cmd of parsed.commands) this.command(cmd);
    });
  }

  inner(words: ShellWord[], raw: string, pipedFrom = false): void {
    this.nested(raw, () => this.words(words, raw, pipedFrom));
  }

  private nested(fragment: string, run: () => void): void {
    if (this.depth >= MAX_DEPTH) return this.hint('unclear', fragment, 'commands nested too deeply to follow');
    this.depth++;
    try {
      run();
    } finally {
      this.depth--;
    }
  }

  private command(cmd: SimpleCommand): void {
    for (const r of cmd.redirects) {
      if (writesThrough(r)) this.hint('write', r.raw, 'redirects output into a file');
    }
    this.words(cmd.words, cmd.raw, cmd.pipedFrom);
  }

  private words(words: ShellWord[], raw: string, pipedFrom: boolean): void {
    let i = 0;
    while (i < words.length && KEYWORDS.has(words[i]!.raw)) i++;
    const head = words[i]?.raw;
    if (head === 'for' || head === 'select') return; // a loop header: its words are data
    if (head === 'case' || head === 'function' || head === 'coproc') return this.hint('unclear', raw, `"${head}" is shell syntax the barrier does not follow`);
    for (; i < words.length; i++) {
      const m = ASSIGNMENT.exec(words[i]!.raw);
      if (!m) break;
      if (DANGEROUS_ENV.test(m[1]!)) this.hint('environment', words[i]!.raw, `sets ${m[1]}`);
    }
    const programWord = words[i];
    if (!programWord) return;
    if (programWord.dynamic) return this.hint('unknown_command', raw, 'the program name comes from an expansion');
    const name = this.programName(programWord, raw);
    if (name === null || HARMLESS_COMMANDS.has(name)) return;
    const rule = ruleFor(name);
    if (!rule) return this.hint('unknown_command', raw);
    const view: CommandView = { name, args: words.slice(i + 1), raw, pipedFrom };
    const before = this.hints.length;
    rule(view, this);
    // A rule that found nothing judged the words it saw; an expansion or a leading glob could
    // still turn into an option it would have flagged (`sed $opt …`, a file named `-i`).
    const hidden = view.args.find((a) => a.dynamic || a.globStart);
    if (this.hints.length === before && hidden) this.hint('unclear', raw, `"${hidden.raw}" may expand to an option`);
  }

  private programName(word: ShellWord, raw: string): string | null {
    const text = word.text;
    if (text === '') {
      this.hint('unclear', raw, 'an empty program name');
      return null;
    }
    if (!text.includes('/')) return text;
    if (SYSTEM_BIN.test(text)) return text.slice(text.lastIndexOf('/') + 1);
    this.hint('unknown_command', raw, `runs ${text}, a program outside the system folders`);
    return null;
  }
}

function writesThrough(r: ShellRedirect): boolean {
  if (!OUTPUT_OPS.has(r.op)) return false;
  const t = r.target;
  if (!t) return false; // already reported as a problem
  if (t.dynamic) return true;
  if (r.op === '>&' && /^(\d+-?|-)$/.test(t.text)) return false; // 2>&1, >&2: duplicates a descriptor
  return !HARMLESS_TARGETS.has(t.text);
}

function literalWord(text: string): ShellWord {
  return { text, raw: shellQuote(text), dynamic: false, globStart: false };
}


