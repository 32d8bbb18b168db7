import type { ShellWord } from './shell-syntax.js';
import type { RiskKind } from './risk-kinds.js';

/** The shape of a per-program rule (command-rules.ts) and the helpers rules share to read arguments. */

export interface CommandView {
  /** The program's base name (`/usr/bin/rm` → `rm`). */
  name: string;
  args: ShellWord[];
  /** The whole command as written, the fragment most hints point at. */
  raw: string;
  pipedFrom: boolean;
}

export interface RuleContext {
  hint(kind: RiskKind, fragment?: string, detail?: string): void;
  /** Judges a command carried inside another (`sudo rm`, `xargs rm`, `find -exec rm`). */
  inner(words: ShellWord[], raw: string, pipedFrom?: boolean): void;
  /** Judges shell code given as a string (`sh -c '…'`, `eval …`, `watch …`). */
  script(code: string): void;
}

export type Rule = (cmd: CommandView, ctx: RuleContext) => void;

export const texts = (args: ShellWord[]) => args.map((a) => a.text);

/** Options before `--`; the rest are operands. */
export function options(args: ShellWord[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    if (a.text === '--') break;
    if (a.text.startsWith('-') && a.text !== '-') out.push(a.text);
  }
  return out;
}

/** A short option letter, alone or in a cluster (`-rf`), or one of the long spellings. */
export function hasOption(args: ShellWord[], letters: string, longs: string[] = []): boolean {
  return options(args).some((o) => {
    if (o.startsWith('--')) return longs.some((l) => o === l || o.startsWith(l + '='));
    return [...o.slice(1)].some((ch) => letters.includes(ch));
  });
}

/** Words that are not options, skipping the values of options listed in `withValue`. */
export function operands(args: ShellWord[], withValue: string[] = []): ShellWord[] {
  const out: ShellWord[] = [];
  let afterDashes = false;
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (afterDashes || !t.startsWith('-') || t === '-') out.push(args[i]!);
    else if (t === '--') afterDashes = true;
    else if (withValue.includes(t)) i++;
  }
  return out;
}

/** The first operand (a subcommand such as `git push`), after skipping options with values. */
export function subcommand(args: ShellWord[], withValue: string[] = []): { name: string; rest: ShellWord[] } {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (withValue.includes(t)) {
      i++;
      continue;
    }
    if (!t.startsWith('-')) return { name: t, rest: args.slice(i + 1) };
  }
  return { name: '', rest: [] };
}

/** Only asks for the version or the help text (`-v` is left out: for bash and python it means verbose). */
export const onlyVersionOrHelp = (args: ShellWord[]) => args.length > 0 && args.every((a) => ['--version', '-V', '--help', '-h'].includes(a.text));

/**
 * A wrapper runs its operand as a command: skip its options (and their values) and a fixed
 * number of leading operands, then judge the rest as a command of its own.
 */
export function wrapper(spec: { withValue?: string[]; leading?: number; whenEmpty?: (cmd: CommandView, ctx: RuleContext) => void }): Rule {
  return (cmd, ctx) => {
    const args = cmd.args;
    let i = 0;
    while (i < args.length) {
      const t = args[i]!.text;
      if (t === '--') {
        i++;
        break;
      }
      if (!t.startsWith('-') || t === '-') break;
      i += spec.withValue?.includes(t) ? 2 : 1;
    }
    i += spec.leading ?? 0;
    const rest = args.slice(i);
    if (rest.length === 0) spec.whenEmpty?.(cmd, ctx);
    else ctx.inner(rest, cmd.raw, cmd.pipedFrom);
  };
}

