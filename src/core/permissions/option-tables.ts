import type { CommandView, RuleContext } from './command-args.js';
import { RISK_KINDS, type RiskKind } from './risk-kinds.js';
import type { ShellWord } from './shell-syntax.js';

/**
 * Option tables (spec 5.1): for each program with a rule, every option it documents (the
 * version's --help or man page; the option-table test walks them), with what it adds to the
 * program's own risks. A class is written `-` (a flag that adds nothing), `v` (takes a value,
 * adds nothing), or a risk kind, alone or followed by ` v`: `code v` for `ssh -F FILE`. An option
 * that runs a program, loads code or configuration, or points the program at another repository
 * or configuration is `code`, which no grant scoped to risks covers. An option a table does not
 * hold (a newer option, an abbreviation, a typo) counts as `code` too: what is not classified is
 * not let through by a grant for "calls that use the network".
 */

export type OptionClass = string;
export type OptionTable = Readonly<Record<string, OptionClass>>;

const KINDS = new Set<string>(RISK_KINDS);

/** The risk an option class adds (null: none) and whether it takes a value; null for a class that is not well formed. */
export function parseClass(c: OptionClass): { kind: RiskKind | null; value: boolean } | null {
  if (c === '-') return { kind: null, value: false };
  if (c === 'v') return { kind: null, value: true };
  const [kind, v, ...more] = c.split(' ');
  if (!KINDS.has(kind!) || more.length > 0 || (v !== undefined && v !== 'v')) return null;
  return { kind: kind as RiskKind, value: v === 'v' };
}

export interface WalkOptions {
  /** After this many operands the rest is a command of its own (ssh's remote command): not read as options. */
  operandsBeforeCommand?: number;
  /** Called for each option's value (ssh -o KEY=VALUE). */
  onValue?: (option: string, value: ShellWord) => void;
  /** Long options are written with one dash (find's -name, wget's -nc next to its -n…). */
  singleDashLong?: boolean;
}

/**
 * Reads `cmd.args` with `table`: raises each option's risk on `ctx`, and `code` for an option the
 * table does not hold or a word that may expand to one. Returns the operands.
 */
export function walkOptions(cmd: CommandView, table: OptionTable, ctx: RuleContext, opts: WalkOptions = {}): ShellWord[] {
  const args = cmd.args;
  const operands: ShellWord[] = [];
  const has = (o: string) => Object.prototype.hasOwnProperty.call(table, o);
  const unknown = (o: string) => ctx.hint('code', cmd.raw, `${o} is not an option the barrier knows for ${cmd.name}; an option it cannot classify may run a program or load configuration`);
  const apply = (o: string, value?: ShellWord) => {
    const c = parseClass(table[o]!);
    if (!c) return unknown(o);
    if (c.kind) ctx.hint(c.kind, cmd.raw, c.kind === 'code' ? `${o} can make ${cmd.name} run a program, load code or configuration, or use another repository` : `${cmd.name} ${o}`);
    if (value) opts.onValue?.(o, value);
  };
  const takesValue = (o: string) => parseClass(table[o]!)?.value === true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (w.dynamic || w.globStart) {
      ctx.hint('code', cmd.raw, `"${w.raw}" may expand to an option of ${cmd.name} that runs a program`);
      continue;
    }
    if (t === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!t.startsWith('-') || t === '-') {
      operands.push(w);
      if (opts.operandsBeforeCommand !== undefined && operands.length >= opts.operandsBeforeCommand) {
        // Options may still follow the destination (ssh host -o …); the first other word starts the command.
        let j = i + 1;
        for (; j < args.length && args[j]!.text.startsWith('-') && args[j]!.text !== '--'; j++) {
          const o = args[j]!.text;
          const short = o.slice(0, 2);
          if (has(o)) apply(o, takesValue(o) ? args[++j] : undefined);
          else if (!o.startsWith('--') && has(short)) apply(short, takesValue(short) ? (o.length > 2 ? { ...args[j]!, text: o.slice(2) } : args[++j]) : undefined);
          else unknown(o);
        }
        operands.push(...args.slice(j));
        break;
      }
      continue;
    }
    if (t.startsWith('--') || opts.singleDashLong) {
      const eq = t.indexOf('=');
      const o = eq === -1 ? t : t.slice(0, eq);
      if (has(o)) {
        if (eq !== -1) {
          if (!takesValue(o)) unknown(t);
          else apply(o, { ...w, text: t.slice(eq + 1) });
        } else apply(o, takesValue(o) ? args[++i] : undefined);
        continue;
      }
      if (t.startsWith('--') || !opts.singleDashLong) {
        unknown(o);
        continue;
      }
    }
    // Short options, clustered: `-abc`, `-n5`, `-oKey=value`.
    for (let k = 1; k < t.length; k++) {
      const o = `-${t[k]}`;
      if (!has(o)) {
        unknown(o);
        break;
      }
      if (takesValue(o)) {
        apply(o, k < t.length - 1 ? { ...w, text: t.slice(k + 1) } : args[++i]);
        break;
      }
      apply(o);
    }
  }
  return operands;
}
