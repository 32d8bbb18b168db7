import { parseBashTree, type SyntaxNode } from './bash-grammar.js';
import { hasHiddenCharacters } from '../display.js';
import { parsePlainCommand } from './plain-command.js';

/**
 * Reads a bash command line with the bash grammar (bash-grammar.ts) into what the risk layer
 * judges: the simple commands (words after quote removal, redirections, whether stdin comes from
 * a pipe), every command substitution, what the grammar could not parse, and every construct that
 * keeps a line from being provably harmless (expansions, arithmetic, `[[`, brace expansion,
 * here-strings, compound commands…). Nothing is executed or expanded.
 */

export type { ParsedShell, ShellProblem, ShellRedirect, ShellWord, SimpleCommand, Substitution, SubstitutionKind } from './shell-types.js';
import type { ParsedShell, ShellRedirect, ShellWord, SubstitutionKind } from './shell-types.js';

/** Commands nested deeper than this (substitutions, subshells, groups, bodies) are unclear. */
export const MAX_NESTING = 64;
/** Longer lines are not parsed at all: unclear. */
export const MAX_COMMAND_LENGTH = 64 * 1024;
const MAX_TREE_DEPTH = 4 * MAX_NESTING + 64;
const MAX_FRAGMENT = 120;

/** Node types that may appear in a provably harmless line. */
const SIMPLE_TYPES = new Set(['program', 'list', 'pipeline', 'command', 'command_name', 'redirected_statement', 'file_redirect', 'comment']);
/** Nodes that hold commands; found inside a here-document's line (`cat <<EOF && rm x`) they are read as commands. */
const STATEMENTS = new Set(['command', 'pipeline', 'list', 'redirected_statement', 'subshell', 'compound_statement', 'if_statement', 'while_statement', 'for_statement', 'c_style_for_statement', 'case_statement', 'function_definition', 'negated_command', 'declaration_command', 'unset_command']);
const SEPARATORS = new Set(['&&', '||', '|', '|&', ';', '\n']);
const NESTING = new Set(['command_substitution', 'process_substitution', 'subshell', 'compound_statement', 'function_definition', 'if_statement', 'while_statement', 'for_statement', 'c_style_for_statement', 'case_statement', 'do_group', 'arithmetic_expansion', 'test_command']);
const CONSTRUCT_NAMES: Readonly<Record<string, string>> = {
  simple_expansion: 'a variable expansion',
  expansion: 'a parameter expansion',
  command_substitution: 'a command substitution',
  process_substitution: 'a process substitution',
  arithmetic_expansion: 'arithmetic',
  test_command: 'a [[ … ]] or (( … )) test',
  brace_expression: 'brace expansion',
  herestring_redirect: 'a here-string',
  heredoc_redirect: 'a here-document',
  variable_assignment: 'a variable assignment',
  function_definition: 'a function definition',
  subshell: 'a subshell',
  compound_statement: 'a { … } group',
  if_statement: 'an if statement',
  while_statement: 'a loop',
  for_statement: 'a loop',
  c_style_for_statement: 'a loop',
  case_statement: 'a case statement',
  negated_command: 'a negated command (!)',
  declaration_command: 'a declaration (declare, export, local, readonly, typeset)',
  unset_command: 'unset',
  array: 'an array',
  translated_string: 'a $"…" string',
};

export function parseShell(source: string): ParsedShell {
  return parsePlainCommand(source) ?? parseShellWithGrammar(source);
}

/** parseShell without the plain-line shortcut (plain-command.ts): always the bash grammar. */
export function parseShellWithGrammar(source: string): ParsedShell {
  const out: ParsedShell = { commands: [], substitutions: [], problems: [], constructs: [], forkBombs: [] };
  if (source.length > MAX_COMMAND_LENGTH) {
    out.problems.push({ fragment: cut(source), reason: `the command is longer than ${MAX_COMMAND_LENGTH} characters` });
    return out;
  }
  const tree = parseBashTree(source);
  try {
    new Reader(out).visit(tree.rootNode, 0, 0, false);
  } finally {
    tree.delete();
  }
  return out;
}

class Reader {
  private stop = false;
  constructor(private readonly out: ParsedShell) {}

  /** `inside` is true below a construct already reported, so only named constructs are added there. */
  visit(node: SyntaxNode, depth: number, nesting: number, pipedFrom: boolean, inside = false): void {
    if (this.stop) return;
    if (depth > MAX_TREE_DEPTH || nesting > MAX_NESTING) {
      this.stop = true;
      this.out.problems.push({ fragment: cut(node.text), reason: `commands nested more than ${MAX_NESTING} levels deep` });
      return;
    }
    const type = node.type;
    if (node.isMissing) {
      this.out.problems.push({ fragment: cut(node.parent?.text ?? ''), reason: `the grammar expected ${type === '' ? 'more' : `"${type}"`} here` });
      return;
    }
    if (type === 'ERROR') {
      this.out.problems.push({ fragment: cut(node.text), reason: 'the grammar cannot parse this' });
      return;
    }
    if (!node.isNamed) {
      if (!SEPARATORS.has(type) && (!inside || type === '&')) this.construct(node.parent ?? node, type === '&' ? 'a command in the background (&)' : `the operator "${type}"`);
      return;
    }
    const simple = SIMPLE_TYPES.has(type);
    if (!simple && (CONSTRUCT_NAMES[type] || !inside)) this.construct(node, CONSTRUCT_NAMES[type] ?? `shell syntax the barrier does not follow (${type})`);
    const below = inside || !simple;
    if (type === 'command_substitution' || type === 'process_substitution') this.substitution(node);
    if (type === 'function_definition') this.forkBomb(node);
    const next = NESTING.has(type) ? nesting + 1 : nesting;

    if (type === 'declaration_command' || type === 'unset_command') {
      // `export LD_PRELOAD=…`, `declare -x`, `unset`: judged like a command named after the keyword.
      const keyword = node.children.find((c) => c && !c.isNamed)?.type ?? type;
      const words: ShellWord[] = [{ text: keyword, raw: keyword, dynamic: false, globStart: false, plain: true }];
      for (const c of node.namedChildren) if (c) words.push(wordOf(c));
      this.out.commands.push({ words, redirects: [], raw: node.text, pipedFrom });
      for (const c of node.namedChildren) if (c) this.visitInside(c, depth + 1, next);
      return;
    }
    if (type === 'command') {
      this.command(node, [], pipedFrom);
      for (const c of node.namedChildren) if (c) this.visitInside(c, depth + 1, next);
      return;
    }
    if (type === 'redirected_statement') {
      const body = node.childForFieldName('body');
      const redirects = node.namedChildren.filter((c): c is SyntaxNode => !!c && c !== body && isRedirect(c));
      if (body?.type === 'command') {
        this.command(body, redirects, pipedFrom);
        for (const c of body.namedChildren) if (c) this.visitInside(c, depth + 2, next);
      } else {
        // Redirections of a compound command (or of a list the grammar groups under them): judged on their own.
        if (redirects.length) this.out.commands.push({ words: [], redirects: redirects.flatMap(redirectsOf), raw: node.text, pipedFrom });
        if (body) this.visit(body, depth + 1, next, pipedFrom, below);
      }
      for (const r of redirects) this.visitInside(r, depth + 1, next);
      return;
    }
    if (type === 'pipeline') {
      let piped = false;
      for (const c of node.children) {
        if (!c) continue;
        if (!c.isNamed) {
          if (c.type === '|' || c.type === '|&') piped = true;
          else this.visit(c, depth + 1, next, false, below);
          continue;
        }
        this.visit(c, depth + 1, next, piped, below);
      }
      return;
    }
    for (const c of node.children) if (c) this.visit(c, depth + 1, next, false, below);
  }

  /** The words and redirections inside a command were read by `command`; only look for nesting in them. */
  private visitInside(node: SyntaxNode, depth: number, nesting: number): void {
    if (this.stop) return;
    if (depth > MAX_TREE_DEPTH || nesting > MAX_NESTING) return this.visit(node, depth, nesting, false, true);
    const type = node.type;
    if (type === 'ERROR' || node.isMissing || STATEMENTS.has(type)) return this.visit(node, depth, nesting, false, true);
    if (type === 'command_substitution' || type === 'process_substitution') return this.visit(node, depth, nesting, false);
    if (type === 'arithmetic_expansion' || type === 'test_command') return this.visit(node, depth, nesting, false, true);
    if (node.isNamed && CONSTRUCT_NAMES[type]) this.construct(node, CONSTRUCT_NAMES[type]!);
    for (const c of node.children) if (c) this.visitInside(c, depth + 1, nesting);
  }

  private command(node: SyntaxNode, outer: SyntaxNode[], pipedFrom: boolean): void {
    const words: ShellWord[] = [];
    const redirects: ShellRedirect[] = [];
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (isRedirect(c)) redirects.push(...redirectsOf(c));
      else if (c.type === 'command_name') {
        const w = c.namedChildren[0];
        if (w) words.push(wordOf(w));
      } else if (c.type === 'variable_assignment') words.push({ ...wordOf(c), plain: false });
      else if (c.type !== 'comment') words.push(wordOf(c));
    }
    for (const r of outer) redirects.push(...redirectsOf(r));
    for (const w of words) if (hasHiddenCharacters(w.raw) || hasHiddenCharacters(w.text)) this.construct(node, 'invisible or control characters');
    this.out.commands.push({ words, redirects, raw: (outer.length ? node.parent?.text : node.text) ?? node.text, pipedFrom });
  }

  private substitution(node: SyntaxNode): void {
    const raw = node.text;
    const kind: SubstitutionKind = node.type === 'process_substitution' ? (raw.startsWith('>') ? '>(' : '<(') : raw.startsWith('`') ? '`' : '$(';
    this.out.substitutions.push({ kind, raw: cut(raw) });
  }

  private construct(node: SyntaxNode, reason: string): void {
    const fragment = cut(node.text);
    if (!this.out.constructs.some((c) => c.reason === reason && c.fragment === fragment)) this.out.constructs.push({ fragment, reason });
  }

  /** `f(){ f|f& };f` and its renamings: a function that calls itself in a pipeline or the background. */
  private forkBomb(node: SyntaxNode): void {
    const name = node.childForFieldName('name')?.text;
    const body = node.childForFieldName('body');
    if (!name || !body) return;
    let selfCalls = 0;
    let spreads = false;
    const walk = (n: SyntaxNode, d: number) => {
      if (d > MAX_TREE_DEPTH) return;
      if (n.type === 'command' && n.childForFieldName('name')?.text === name) selfCalls++;
      if (n.type === 'pipeline' || n.type === '&') spreads = true;
      for (const c of n.children) if (c) walk(c, d + 1);
    };
    walk(body, 0);
    if (selfCalls > 0 && (spreads || selfCalls > 1)) this.out.forkBombs.push(cut(node.text));
  }
}

function isRedirect(node: SyntaxNode): boolean {
  return node.type === 'file_redirect' || node.type === 'heredoc_redirect' || node.type === 'herestring_redirect';
}

/** A redirection, plus those written on a here-document's first line (`cat <<EOF > out`). */
function redirectsOf(node: SyntaxNode): ShellRedirect[] {
  if (node.type === 'file_redirect') return [redirectOf(node)];
  const own: ShellRedirect = { op: node.type === 'heredoc_redirect' ? '<<' : '<<<', fd: null, target: null, raw: node.text };
  return [own, ...node.namedChildren.filter((c): c is SyntaxNode => !!c && c.type === 'file_redirect').map(redirectOf)];
}

function redirectOf(node: SyntaxNode): ShellRedirect {
  const raw = node.text;
  let fd: string | null = null;
  let op = '';
  let target: ShellWord | null = null;
  for (const c of node.children) {
    if (!c) continue;
    if (c.type === 'file_descriptor') fd = c.text;
    else if (!c.isNamed) op += c.type;
    else target = wordOf(c);
  }
  return { op, fd, target, raw };
}

const SAFE_UNQUOTED = /^[\p{L}\p{N}_./:=@%+,~^\-*?[\]]*$/u;

/** A word-like node as the shell would see it after quote removal. */
export function wordOf(node: SyntaxNode): ShellWord {
  const raw = node.text;
  const parts = node.type === 'concatenation' ? node.children.filter((c): c is SyntaxNode => !!c) : [node];
  let text = '';
  let dynamic = false;
  let plain = true;
  parts.forEach((p) => {
    const piece = piecesOf(p);
    text += piece.text;
    dynamic ||= piece.dynamic;
    plain &&= piece.plain;
  });
  const globStart = /^[*?[]/.test(raw);
  if (globStart || dynamic || hasHiddenCharacters(text)) plain = false;
  return { text, raw, dynamic, globStart, plain };
}

function piecesOf(node: SyntaxNode): { text: string; dynamic: boolean; plain: boolean } {
  const raw = node.text;
  switch (node.type) {
    case 'word':
    case 'number': {
      const unescaped = raw.replace(/\\\n/g, '').replace(/\\(.)/gsu, '$1');
      const bare = raw.replace(/\\\n/g, '').replace(/\\./gsu, 'x');
      // `{`, `}` and `,` in an unquoted word are how brace expansion looks to this grammar.
      const brace = /[{}]/.test(bare);
      return { text: unescaped, dynamic: brace, plain: !brace && SAFE_UNQUOTED.test(bare) };
    }
    case 'raw_string':
      return { text: raw.slice(1, -1), dynamic: false, plain: true };
    case 'ansi_c_string':
      return { text: decodeAnsiC(raw.slice(2, -1)), dynamic: false, plain: true };
    case 'string': {
      let text = '';
      let dynamic = false;
      for (const c of node.namedChildren) {
        if (!c) continue;
        if (c.type === 'string_content') text += c.text.replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch));
        else {
          text += c.text;
          dynamic = true;
        }
      }
      return { text, dynamic, plain: !dynamic };
    }
    default:
      return { text: raw, dynamic: true, plain: false };
  }
}

/** `$'…'` (ANSI-C quoting) decoded, so `$'\x72m'` reads as `rm`. */
export function decodeAnsiC(body: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
  let text = '';
  for (let i = 0; i < body.length; ) {
    const c = body[i]!;
    if (c !== '\\') {
      text += c;
      i++;
      continue;
    }
    const rest = body.slice(i + 1);
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(rest) ?? /^u([0-9a-fA-F]{1,4})/.exec(rest) ?? /^U([0-9a-fA-F]{1,8})/.exec(rest);
    const oct = /^([0-7]{1,3})/.exec(rest);
    const ctl = /^c(.)/s.exec(rest);
    if (hex) {
      const cp = parseInt(hex[1]!, 16);
      text += cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
      i += 1 + hex[0].length;
    } else if (oct) {
      text += String.fromCharCode(parseInt(oct[1]!, 8) & 0xff);
      i += 1 + oct[0].length;
    } else if (ctl) {
      text += String.fromCharCode(ctl[1]!.charCodeAt(0) & 0x1f);
      i += 3;
    } else if (rest[0] !== undefined && simple[rest[0]] !== undefined) {
      text += simple[rest[0]];
      i += 2;
    } else {
      text += '\\' + (rest[0] ?? '');
      i += 2;
    }
  }
  return text;
}

function cut(text: string): string {
  return text.length > MAX_FRAGMENT ? text.slice(0, MAX_FRAGMENT - 1) + '…' : text;
}
