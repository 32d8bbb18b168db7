import { allowListVerdict } from './allow-list.js';
import { catastrophicCommand, catastrophicWriteTarget, defaultCatastropheContext, inPepeHome, type CatastropheContext } from './catastrophic.js';
import type { CommandView, RuleContext } from './command-args.js';
import { ASSIGNMENT, DANGEROUS_ENV, HARMLESS_COMMANDS, ruleFor } from './command-rules.js';
import { hasHiddenCharacters, preview, shellQuote } from '../display.js';
import type { RiskHint, RiskKind } from './risk-kinds.js';
import { parseShell, type ShellRedirect, type ShellWord, type SimpleCommand } from './shell-syntax.js';

/**
 * Risk hints for shell commands (spec 5.1). A shell call runs without a prompt only when it is
 * provably harmless: simple commands joined by && || ; |, each a program on the allow-list
 * (allow-list.ts) with allowed options and plain words. Anything else carries at least one hint;
 * the hints say, as precisely as the barrier can, what the command may do. Commands that must
 * never run (catastrophic.ts) are reported separately and refused.
 */

export { RISK_KINDS, RISK_LABELS, type RiskHint, type RiskKind } from './risk-kinds.js';

/** What the barrier learns from a shell call: the hints, and why it must never run (empty when it may). */
export interface ShellVerdict {
  hints: RiskHint[];
  catastrophic: string[];
  /** The programs the command line runs by name (base names), for checks that need the disk (git-config.ts). */
  programs?: string[];
}

/** A command line run through a shell (the `bash` tool). Needs the grammar loaded (loadShellGrammar). */
export function classifyShell(commandLine: string, ctx: CatastropheContext = defaultCatastropheContext()): ShellVerdict {
  const c = new Collector(ctx);
  if (hasHiddenCharacters(commandLine)) c.hint('hidden_characters', commandLine, 'shown $\'…\'-quoted so every character is visible');
  c.script(commandLine);
  return { hints: c.hints, catastrophic: c.catastrophic, programs: [...c.programs] };
}

/** A program run directly with an argument vector, no shell (the `run_script` tool). */
export function classifyScript(program: string, argv: readonly string[], ctx: CatastropheContext = defaultCatastropheContext()): ShellVerdict {
  const c = new Collector(ctx);
  const all = [program, ...argv];
  if (all.some(hasHiddenCharacters)) c.hint('hidden_characters', all.map(shellQuote).join(' '), 'shown $\'…\'-quoted so every character is visible');
  // Without a shell `X=1` is the program's name, not an assignment: judging `X=1 ls` as `ls` would
  // judge another program than the one that runs.
  if (ASSIGNMENT.test(program)) c.hint('unknown_command', shellQuote(program), 'runs a program whose name looks like a variable assignment');
  c.inner(all.map(literalWord), all.map(shellQuote).join(' '));
  return { hints: c.hints, catastrophic: c.catastrophic, programs: [...c.programs] };
}

/** A shell tool call from its arguments: `bash {command}`, `run_script {program, argv | args}`; other tools: nothing. */
export function classifyToolCall(tool: string, args: unknown, ctx?: CatastropheContext): ShellVerdict {
  const a = (args ?? {}) as Record<string, unknown>;
  if (tool === 'bash') {
    if (typeof a.command === 'string') return classifyShell(a.command, ctx);
    return { hints: [{ kind: 'unclear', fragment: preview(args, MAX_FRAGMENT), detail: 'bash was called without a command string' }], catastrophic: [] };
  }
  if (tool === 'run_script') {
    const argv = a.argv ?? a.args ?? [];
    if (typeof a.program === 'string' && Array.isArray(argv) && argv.every((x) => typeof x === 'string')) return classifyScript(a.program, argv as string[], ctx);
    return { hints: [{ kind: 'unclear', fragment: preview(args, MAX_FRAGMENT), detail: 'run_script was called without a program and a list of string arguments' }], catastrophic: [] };
  }
  return { hints: [], catastrophic: [] };
}

export const shellRiskHints = (commandLine: string): RiskHint[] => classifyShell(commandLine).hints;
export const scriptRiskHints = (program: string, argv: readonly string[]): RiskHint[] => classifyScript(program, argv).hints;
export const toolRiskHints = (tool: string, args: unknown): RiskHint[] => classifyToolCall(tool, args).hints;

// ---------------------------------------------------------------------------------------------

const MAX_DEPTH = 8;
const MAX_FRAGMENT = 200;
const OUTPUT_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2']);
const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$|^\/opt\/homebrew\/bin\/[^/]+$/;
/** Already reported as a hint of its own (command_substitution). */
const SUBSTITUTION_CONSTRUCTS = new Set(['a command substitution', 'a process substitution']);

class Collector implements RuleContext {
  readonly hints: RiskHint[] = [];
  readonly catastrophic: string[] = [];
  readonly programs = new Set<string>();
  /** Every hint raised, duplicates included: whether a rule found something is judged on this. */
  private readonly raised: RiskKind[] = [];
  private readonly seen = new Set<string>();
  private depth = 0;

  constructor(private readonly ctx: CatastropheContext) {}

  hint(kind: RiskKind, fragment = '', detail?: string): void {
    this.raised.push(kind);
    const f = fragment.length > MAX_FRAGMENT ? fragment.slice(0, MAX_FRAGMENT - 1) + '…' : fragment;
    const key = `${kind}\u0000${f}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.hints.push(detail === undefined ? { kind, fragment: f } : { kind, fragment: f, detail });
  }

  private refuse(reason: string): void {
    if (!this.catastrophic.includes(reason)) this.catastrophic.push(reason);
  }

  script(code: string): void {
    this.nested(code, () => {
      const parsed = parseShell(code);
      for (const p of parsed.problems) this.hint('unclear', p.fragment, p.reason);
      for (const s of parsed.substitutions) this.hint('command_substitution', s.raw);
      for (const bomb of parsed.forkBombs) {
        this.hint('fork_bomb', bomb);
        this.refuse(`a fork bomb (${bomb})`);
      }
      for (const c of parsed.constructs) {
        if (SUBSTITUTION_CONSTRUCTS.has(c.reason)) continue;
        if (c.reason === 'invisible or control characters') {
          if (!this.hints.some((h) => h.kind === 'hidden_characters')) this.hint('hidden_characters', c.fragment, c.reason);
        }
        else this.hint('unclear', c.fragment, `${c.reason} is not run without asking`);
      }
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
    for (const r of cmd.redirects) this.redirect(r);
    this.words(cmd.words, cmd.raw, cmd.pipedFrom);
  }

  private redirect(r: ShellRedirect): void {
    const t = r.target;
    if (r.op === '<<' || r.op === '<<<') return; // a here-document or here-string: reported as a construct
    if (!t) return; // `>&-` closes a descriptor
    const output = OUTPUT_OPS.has(r.op);
    if (output) {
      const why = catastrophicWriteTarget(t, this.ctx);
      if (why) this.refuse(why);
    }
    if (t.dynamic || !t.plain) return this.hint(output ? 'write' : 'unclear', r.raw, 'the redirection target comes from an expansion');
    // 2>&1, >&2, >&-: duplicates standard output or error, or closes a descriptor; nothing else.
    if ((r.op === '>&' || r.op === '<&') && /^([12]|-)$/.test(t.text)) return;
    if (output) {
      if (!HARMLESS_TARGETS.has(t.text)) this.hint('write', r.raw, 'redirects output into a file');
      return;
    }
    if (/^\/dev\/(tcp|udp)\//.test(t.text)) return this.hint('network', r.raw, 'opens a network connection');
    if (t.text !== '/dev/null') this.hint('unclear', r.raw, 'reads input from a file (only /dev/null is allowed without asking)');
  }

  private words(words: ShellWord[], raw: string, pipedFrom: boolean): void {
    const before = this.raised.length;
    const program = this.judge(words, raw, pipedFrom);
    // The allow-list: a command the rules found nothing against still runs unasked only when
    // its program, every option and every word are known to be harmless.
    if (this.depth !== 1 || this.raised.length !== before || !program) return;
    const why = program.word.text.includes('/') ? `runs ${program.word.text} by its path` : allowListVerdict(program.name, program.args);
    if (why) this.hint('unknown_command', raw, why);
  }

  /** The deny-list rules; returns the program word and its arguments when there is one. */
  private judge(words: ShellWord[], raw: string, pipedFrom: boolean): { word: ShellWord; name: string; args: ShellWord[] } | null {
    let i = 0;
    for (; i < words.length; i++) {
      const m = ASSIGNMENT.exec(words[i]!.raw);
      if (!m) break;
      if (DANGEROUS_ENV.test(m[1]!)) this.hint('environment', words[i]!.raw, `sets ${m[1]}`);
      if (m[1] === 'PEPE_HOME') this.hint('environment', words[i]!.raw, 'sets PEPE_HOME');
    }
    const programWord = words[i];
    if (!programWord) return null;
    if (programWord.dynamic || !programWord.plain) {
      this.hint('unknown_command', raw, 'the program name comes from an expansion or is not a plain word');
      return null;
    }
    const name = this.programName(programWord, raw);
    if (name === null) return null;
    const args = words.slice(i + 1);
    this.programs.add(name);
    const why = catastrophicCommand(name, args, this.ctx);
    if (why) this.refuse(why);
    if (HARMLESS_COMMANDS.has(name)) return { word: programWord, name, args };
    const rule = ruleFor(name);
    if (!rule) {
      this.hint('unknown_command', raw);
      this.unknownOptions(name, args, raw);
      return { word: programWord, name, args };
    }
    const view: CommandView = { name, args, raw, pipedFrom };
    const before = this.raised.length;
    rule(view, this);
    const added = this.raised.slice(before);
    if (added.includes('unknown_command')) this.unknownOptions(name, args, raw);
    if (added.some((k) => k === 'write' || k === 'delete') && args.some((a) => inPepeHome(a, this.ctx))) this.refuse(`${name} changes files in Pepe's home folder`);
    // A rule that found nothing judged the words it saw; an expansion or a leading glob could
    // still turn into an option it would have flagged (`sed $opt …`, a file named `-i`).
    const hidden = args.find((a) => a.dynamic || a.globStart);
    if (added.length === 0 && hidden) this.hint('unclear', raw, `"${hidden.raw}" may expand to an option`);
    return { word: programWord, name, args };
  }

  /**
   * A program the barrier cannot judge is covered by a grant by name only (grant-scope.ts), and
   * only with plain words: an option of it (`npm --userconfig ./x test`, `make -f evil.mk`) may
   * load code or configuration or point it at another repository, so it is `code`.
   */
  private unknownOptions(name: string, args: ShellWord[], raw: string): void {
    const option = args.find((a) => a.dynamic || a.globStart || (a.text.startsWith('-') && a.text !== '-'));
    if (option) this.hint('code', raw, `"${option.raw}" is an option (or may expand to one) of ${name}, which the barrier cannot judge; it may load code or configuration`);
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

function literalWord(text: string): ShellWord {
  return { text, raw: shellQuote(text), dynamic: false, globStart: false, plain: !hasHiddenCharacters(text) };
}
