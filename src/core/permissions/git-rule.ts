import { hasOption, operands, texts, type CommandView, type Rule, type RuleContext } from './command-args.js';
import { GIT_GLOBAL, GIT_OPTION_RISKS, GIT_READ_OPTIONS, GIT_SUBCOMMANDS, type GitClass } from './git-options.js';
import { parseClass } from './option-tables.js';
import type { RiskKind } from './risk-kinds.js';
import type { ShellWord } from './shell-syntax.js';

/**
 * git (spec 5.1): every global option and subcommand is classified (git-options.ts). Read-only
 * subcommands add nothing, but each of their options is looked up: an external diff, a textconv
 * filter, a signature check, a pager, a submodule's repository are `code`, and an option the table
 * does not hold (an abbreviation git would accept, a newer option) is `code` too. Commands that
 * change refs or the index run the repository's hooks: `write` and `code`. A name git does not
 * know may be an alias, which can run a shell command.
 */

const KINDS: Readonly<Record<GitClass, RiskKind[]>> = {
  read: [], write: ['write'], delete: ['delete'], hooks: ['write', 'code'], network: ['network'],
  'network+hooks': ['network', 'write', 'code'], 'network+code': ['network', 'code'], code: ['code'],
};
const DETAIL: Partial<Record<RiskKind, string>> = { code: 'runs the repository\'s hooks or a program of its own choosing', write: 'changes the repository or working tree' };
/** Subcommands that take `-5` for `-n 5`. */
const NUMERIC = new Set(['log', 'shortlog', 'whatchanged', 'show', 'rev-list', 'reflog', 'show-branch', 'blame']);

const readOptionSets = new Map<string, Set<string>>();
function readOptions(sub: string): Set<string> {
  let set = readOptionSets.get(sub);
  if (!set) {
    set = new Set((GIT_READ_OPTIONS[sub] ?? '').split(/\s+/).filter(Boolean).map((o) => o.replace(/=$/, '')));
    readOptionSets.set(sub, set);
  }
  return set;
}

export const git: Rule = (cmd, ctx) => {
  const args = cmd.args;
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (w.dynamic || w.globStart) {
      ctx.hint('code', cmd.raw, `"${w.raw}" may expand to a git option that runs a program`);
      continue;
    }
    if (!t.startsWith('-')) break;
    const long = t.startsWith('--');
    const eq = t.indexOf('=');
    const key = long ? (eq === -1 ? t : t.slice(0, eq)) : t.slice(0, 2);
    const attached = long ? eq !== -1 : t.length > 2;
    if (key === '--exec-path' && !attached) continue; // prints where git's programs are
    const cls = Object.prototype.hasOwnProperty.call(GIT_GLOBAL, key) ? parseClass(GIT_GLOBAL[key]!) : null;
    if (!cls) {
      ctx.hint('code', cmd.raw, `${key} is not a git option the barrier knows; one it cannot classify may run a program`);
      continue;
    }
    if (cls.kind) ctx.hint(cls.kind, cmd.raw, `git ${key} can make git run a program, or use another repository or configuration`);
    if (cls.value && !attached) i++;
  }
  const subWord = args[i];
  if (!subWord) return;
  const sub = subWord.text;
  const rest = args.slice(i + 1);
  if (!Object.prototype.hasOwnProperty.call(GIT_SUBCOMMANDS, sub)) {
    ctx.hint('unknown_command', cmd.raw, `"git ${sub}" is not a git command the barrier knows (it may be an alias)`);
    ctx.hint('code', cmd.raw, `"git ${sub}" may be an alias, which can run a shell command`);
    return;
  }
  if (GIT_SUBCOMMANDS[sub] === 'read' || readOnlyForm(sub, rest)) return readCommand(cmd, sub, rest, ctx);
  for (const k of KINDS[GIT_SUBCOMMANDS[sub]!]) {
    if (k === 'write' && (sub === 'ls-remote' || sub === 'send-email')) continue;
    ctx.hint(k, cmd.raw, DETAIL[k]);
  }
  discards(cmd, sub, rest, ctx);
};

/** A read-only subcommand (or read-only form): each option looked up. */
function readCommand(cmd: CommandView, sub: string, rest: ShellWord[], ctx: RuleContext): void {
  const known = readOptions(sub);
  const risks = { ...GIT_OPTION_RISKS['*'], ...GIT_OPTION_RISKS[sub] };
  const risk = (o: string) => {
    const k = risks[o];
    if (k) ctx.hint(k as RiskKind, cmd.raw, k === 'code' ? `git ${sub} ${o} runs a program or enters another repository` : `git ${sub} ${o}`);
  };
  const unknown = (o: string) => ctx.hint('code', cmd.raw, `${o} is not an option the barrier knows for git ${sub}; one it cannot classify may run a program`);
  for (const w of rest) {
    const t = w.text;
    if (w.dynamic || w.globStart) {
      ctx.hint('code', cmd.raw, `"${w.raw}" may expand to a git option that runs a program`);
      continue;
    }
    if (t === '--') break;
    if (!t.startsWith('-') || t === '-') continue;
    if (NUMERIC.has(sub) && /^-\d+$/.test(t)) continue;
    if (t.startsWith('--')) {
      const o = t.includes('=') ? t.slice(0, t.indexOf('=')) : t;
      if (known.has(o)) risk(o);
      else if (o.startsWith('--no-') && known.has(`--${o.slice(5)}`)) continue; // turning an option off
      else unknown(o);
      continue;
    }
    for (let k = 1; k < t.length; k++) {
      const o = `-${t[k]}`;
      if (!known.has(o)) {
        unknown(o);
        break;
      }
      risk(o);
      // A short option with a value takes the rest of the word (`-n5`, `-U3`).
      if ((GIT_READ_OPTIONS[sub] ?? '').split(/\s+/).includes(`${o}=`)) break;
    }
  }
}

function readOnlyForm(sub: string, rest: ShellWord[]): boolean {
  const positional = operands(rest);
  const first = positional[0]?.text ?? '';
  switch (sub) {
    case 'branch':
      return positional.length === 0 ? !hasOption(rest, 'dDmMcCf', ['--delete', '--move', '--copy', '--force', '--set-upstream-to', '--unset-upstream', '--edit-description', '--track', '--create-reflog']) : hasOption(rest, 'l', ['--list']) && !hasOption(rest, 'dDmMcCf', ['--delete', '--move', '--copy', '--force']);
    case 'tag':
      return (positional.length === 0 || hasOption(rest, 'l', ['--list'])) && !hasOption(rest, 'dsafuFme', ['--delete', '--sign', '--annotate', '--force', '--local-user', '--file', '--message', '--edit']);
    case 'remote':
      return positional.length === 0 || (['show', 'get-url'].includes(first) && !hasOption(rest, '', ['--push', '--all']));
    case 'stash':
      return ['list', 'show'].includes(first);
    case 'reflog':
      return !['expire', 'delete'].includes(first);
    case 'worktree':
      return first === 'list';
    case 'config':
      return hasOption(rest, 'l', ['--get', '--get-all', '--get-regexp', '--list', '--show-origin', '--get-urlmatch']) || ['get', 'list'].includes(first);
    case 'submodule':
      return ['status', 'summary'].includes(first || 'status') && positional.length <= 1;
    case 'symbolic-ref':
      return positional.length <= 1 && !hasOption(rest, 'd', ['--delete']);
    default:
      return false;
  }
}

function discards(cmd: CommandView, sub: string, rest: ShellWord[], ctx: RuleContext): void {
  const restTexts = texts(rest);
  const positional = operands(rest);
  if (sub === 'push' && (hasOption(rest, 'fd', ['--force', '--force-with-lease', '--delete', '--mirror', '--prune']) || restTexts.some((t) => t.startsWith(':') || t.startsWith('+')))) {
    ctx.hint('delete', cmd.raw, 'may delete or overwrite remote history');
  }
  const gone =
    sub === 'rm' ||
    (sub === 'reset' && restTexts.includes('--hard')) ||
    (sub === 'checkout' && (restTexts.includes('--') || restTexts.includes('.') || hasOption(rest, 'f', ['--force']))) ||
    sub === 'restore' ||
    (sub === 'stash' && ['drop', 'clear'].includes(positional[0]?.text ?? '')) ||
    (sub === 'branch' && hasOption(rest, 'dD', ['--delete'])) ||
    (sub === 'tag' && hasOption(rest, 'd', ['--delete'])) ||
    (sub === 'worktree' && positional[0]?.text === 'remove') ||
    (sub === 'reflog' && ['expire', 'delete'].includes(positional[0]?.text ?? '')) ||
    sub === 'filter-branch';
  if (gone) ctx.hint('delete', cmd.raw, 'discards work or history');
}
