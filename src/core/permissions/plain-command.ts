import type { ParsedShell, ShellWord } from './shell-types.js';

/**
 * The commonest command line, `program arg arg` with nothing but plain characters, read without the
 * bash grammar. The grammar is WebAssembly: the first line a process parses pays for loading and
 * compiling it (about 150 ms of CPU), which a `true`, `ls -la src` or `npm test` need not wait for.
 *
 * Only lines whose reading is certain qualify: a program name of letters, digits and `_ . / : , -`
 * (starting with a letter, digit, `_`, `.` or `/`), arguments that may also hold `@ % +`, single
 * spaces between, no `=` anywhere and no reserved word. No quoting, expansion, glob, brace, tilde,
 * comment, redirection, separator or assignment can occur in such a line, so it is one simple
 * command whose words are exactly as written: the result the grammar gives. The grammar has
 * quirks in a program name (`if%`, `x+:`, `- x=1` read otherwise), hence the narrower first word;
 * test/unit/permissions/plain-command.test.ts checks the two agree on generated lines. Anything
 * else returns null and goes to the grammar.
 */
const PLAIN_LINE = /^[A-Za-z0-9_./][A-Za-z0-9_./:,-]*(?: [A-Za-z0-9_./:@%+,-]+)*$/;

/** Words the grammar reads as syntax (or as a declaration or unset) in some position. */
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'in', 'function', 'select', 'time', 'coproc', 'declare', 'typeset', 'export', 'local', 'readonly', 'unset', 'unsetenv']);

export const MAX_PLAIN_LENGTH = 4096;

export function parsePlainCommand(source: string): ParsedShell | null {
  if (source.length > MAX_PLAIN_LENGTH || !PLAIN_LINE.test(source)) return null;
  const texts = source.split(' ');
  if (texts.some((t) => RESERVED.has(t))) return null;
  const words: ShellWord[] = texts.map((text) => ({ text, raw: text, dynamic: false, globStart: false, plain: true }));
  return { commands: [{ words, redirects: [], raw: source, pipedFrom: false }], substitutions: [], problems: [], constructs: [], forkBombs: [] };
}
