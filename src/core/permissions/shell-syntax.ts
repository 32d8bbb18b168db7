/**
 * A small, conservative reader of POSIX/bash command lines, enough for the risk hints (spec 5.1).
 * It does not execute or expand anything: it splits a line into simple commands (words after
 * quote removal, redirections, whether stdin comes from a pipe) and collects every command
 * substitution, whose inner commands are read too. What it cannot follow (unterminated quotes,
 * unbalanced parentheses) becomes a problem, which the risk layer reports as risky.
 */

export interface ShellWord {
  /** The value after quote removal; expansions are kept as written (`$HOME`). */
  text: string;
  /** As written in the source. */
  raw: string;
  /** Contains an expansion whose value is unknown here ($x, ${x}, $(…), `…`, $((…)), <(…)). */
  dynamic: boolean;
  /** Starts with an unquoted glob character, so it may expand to something like `-i`. */
  globStart: boolean;
}

export interface ShellRedirect {
  op: string;
  /** The explicit file descriptor (`2>`), if any. */
  fd: string | null;
  /** The target word; null for here-documents and a missing target. */
  target: ShellWord | null;
  raw: string;
}

export interface SimpleCommand {
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
  /** Every simple command, including those inside substitutions, in source order of their end. */
  commands: SimpleCommand[];
  substitutions: Substitution[];
  problems: ShellProblem[];
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
}

const BLANK = new Set([' ', '\t', '\r']);
const WORD_END = new Set([' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>']);
const GLOB = new Set(['*', '?', '[']);
const REDIRECT_OPS = ['<<<', '<<-', '<<', '<>', '<&', '<', '&>>', '&>', '>>', '>|', '>&', '>'];

export function parseShell(source: string): ParsedShell {
  const out: ParsedShell = { commands: [], substitutions: [], problems: [] };
  const parser = new Parser(source, out);
  parser.parseList(null);
  return out;
}

class Parser {
  private pos = 0;
  private heredocs: PendingHeredoc[] = [];

  constructor(
    private readonly src: string,
    private readonly out: ParsedShell,
  ) {}

  /** Reads commands until the end, or until the `)` closing a `$(`/`<(` when `closing` is set. */
  parseList(closing: ')' | null): void {
    const src = this.src;
    let cmd = this.startCommand(false);
    let subshellDepth = 0;
    const finish = (nextPiped: boolean) => {
      if (cmd.words.length > 0 || cmd.redirects.length > 0) {
        cmd.raw = src.slice(cmd.start, this.pos).trim();
        this.out.commands.push({ words: cmd.words, redirects: cmd.redirects, raw: cmd.raw, pipedFrom: cmd.pipedFrom });
      }
      cmd = this.startCommand(nextPiped);
    };

    while (true) {
      while (this.pos < src.length && BLANK.has(src[this.pos]!)) this.pos++;
      if (this.pos >= src.length) {
        finish(false);
        if (closing) this.problem(src.slice(Math.max(0, src.length - 40)), 'a "(" is never closed');
        return;
      }
      if (cmd.words.length === 0 && cmd.redirects.length === 0) cmd.start = this.pos;
      const c = src[this.pos]!;
      const next = src[this.pos + 1];

      if (c === '\\' && next === '\n') {
        this.pos += 2;
        continue;
      }
      if (c === '\n') {
        finish(false);
        this.pos++;
        this.readHeredocBodies();
        continue;
      }
      if (c === '#') {
        while (this.pos < src.length && src[this.pos] !== '\n') this.pos++;
        continue;
      }
      if (c === ')') {
        finish(false);
        this.pos++;
        if (subshellDepth > 0) subshellDepth--;
        else if (closing) return;
        else this.problem(')', 'a ")" closes nothing');
        continue;
      }
      if (c === '(') {
        finish(false);
        this.pos++;
        subshellDepth++;
        continue;
      }
      if (c === ';') {
        finish(false);
        this.pos += next === ';' ? (src[this.pos + 2] === '&' ? 3 : 2) : next === '&' ? 2 : 1;
        continue;
      }
      if (c === '&' && next !== '>') {
        finish(false);
        this.pos += next === '&' ? 2 : 1;
        continue;
      }
      if (c === '|') {
        if (next === '|') {
          finish(false);
          this.pos += 2;
        } else {
          finish(true);
          this.pos += next === '&' ? 2 : 1;
        }
        continue;
      }
      if ((c === '<' || c === '>') && next === '(') {
        cmd.words.push(this.readWord()!);
        continue;
      }
      if (c === '<' || c === '>' || c === '&') {
        cmd.redirects.push(this.readRedirect(null));
        continue;
      }
      const word = this.readWord();
      if (!word) {
        // Defensive: never loop without progress.
        this.problem(c, `unexpected "${c}"`);
        this.pos++;
        continue;
      }
      const after = src[this.pos];
      if ((after === '<' || after === '>') && /^\d+$/.test(word.raw) && src[this.pos + 1] !== '(') {
        cmd.redirects.push(this.readRedirect(word.raw));
        continue;
      }
      cmd.words.push(word);
    }
  }

  private startCommand(pipedFrom: boolean) {
    return { start: this.pos, words: [] as ShellWord[], redirects: [] as ShellRedirect[], raw: '', pipedFrom };
  }

  private readRedirect(fd: string | null): ShellRedirect {
    const src = this.src;
    const start = fd === null ? this.pos : this.pos - fd.length;
    const op = REDIRECT_OPS.find((o) => src.startsWith(o, this.pos))!;
    this.pos += op.length;
    while (this.pos < src.length && BLANK.has(src[this.pos]!)) this.pos++;
    const target = this.readWord();
    const raw = src.slice(start, this.pos).trim();
    if (op === '<<' || op === '<<-') {
      if (target) this.heredocs.push({ delimiter: target.text, stripTabs: op === '<<-', expands: target.raw === target.text });
      else this.problem(raw, 'a here-document without a delimiter');
      return { op, fd, target: null, raw };
    }
    if (!target) this.problem(raw, 'a redirection without a target');
    return { op, fd, target, raw };
  }

  /** Here-document bodies start after the newline that ends their command (bash semantics). */
  private readHeredocBodies(): void {
    const pending = this.heredocs;
    this.heredocs = [];
    for (const doc of pending) {
      const lines: string[] = [];
      let found = false;
      while (this.pos < this.src.length) {
        const nl = this.src.indexOf('\n', this.pos);
        const end = nl === -1 ? this.src.length : nl;
        const line = this.src.slice(this.pos, end);
        this.pos = nl === -1 ? end : end + 1;
        const compared = doc.stripTabs ? line.replace(/^\t+/, '') : line;
        if (compared.replace(/\r$/, '') === doc.delimiter) {
          found = true;
          break;
        }
        lines.push(line);
      }
      if (!found) this.problem(`<<${doc.delimiter}`, 'a here-document is never closed');
      // An unquoted delimiter means the body undergoes expansion, including $(…) and `…`.
      if (doc.expands) new Parser(lines.join('\n'), this.out).readExpanding(null);
    }
  }

  /** One word, with quotes removed; null when the current character cannot start a word. */
  private readWord(): ShellWord | null {
    const src = this.src;
    const start = this.pos;
    let text = '';
    let dynamic = false;
    let globStart = false;
    let anyQuote = false;
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      const next = src[this.pos + 1];
      if ((c === '<' || c === '>') && next === '(' && this.pos === start) {
        const subStart = this.pos;
        this.pos += 2;
        this.parseList(')');
        this.substitution(c === '<' ? '<(' : '>(', subStart);
        dynamic = true;
        text += src.slice(subStart, this.pos);
        continue;
      }
      if (WORD_END.has(c)) break;
      if (c === '\\') {
        if (next === '\n') {
          this.pos += 2;
          continue;
        }
        if (next === undefined) {
          this.problem('\\', 'a trailing backslash');
          this.pos++;
          break;
        }
        text += next;
        anyQuote = true;
        this.pos += 2;
        continue;
      }
      if (c === "'") {
        const close = src.indexOf("'", this.pos + 1);
        if (close === -1) {
          this.problem(src.slice(this.pos, this.pos + 40), 'an unterminated single quote');
          text += src.slice(this.pos + 1);
          this.pos = src.length;
          break;
        }
        text += src.slice(this.pos + 1, close);
        anyQuote = true;
        this.pos = close + 1;
        continue;
      }
      if (c === '"') {
        this.pos++;
        const part = this.readExpanding('"');
        text += part.text;
        dynamic ||= part.dynamic;
        anyQuote = true;
        continue;
      }
      if (c === '$' && next === "'") {
        const part = this.readAnsiC();
        text += part;
        anyQuote = true;
        continue;
      }
      if (c === '$' && next === '"') {
        this.pos += 2;
        const part = this.readExpanding('"');
        text += part.text;
        dynamic ||= part.dynamic;
        anyQuote = true;
        continue;
      }
      if (c === '$' || c === '`') {
        const part = this.readExpansion();
        if (part !== null) {
          text += part;
          dynamic = true;
          continue;
        }
      }
      if (GLOB.has(c) && text === '' && !anyQuote) globStart = true;
      text += c;
      this.pos++;
    }
    if (this.pos === start) return null;
    return { text, raw: src.slice(start, this.pos), dynamic, globStart };
  }

  /**
   * Reads double-quoted content up to `closing` (or to the end when null, for here-document
   * bodies): only `$…` and backticks are special, plus backslash before `$ \` " newline`.
   */
  readExpanding(closing: '"' | null): { text: string; dynamic: boolean } {
    const src = this.src;
    const start = this.pos;
    let text = '';
    let dynamic = false;
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      const next = src[this.pos + 1];
      if (closing && c === closing) {
        this.pos++;
        return { text, dynamic };
      }
      if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
        if (next !== '\n') text += next;
        this.pos += 2;
        continue;
      }
      if (c === '$' || c === '`') {
        const part = this.readExpansion();
        if (part !== null) {
          text += part;
          dynamic = true;
          continue;
        }
      }
      text += c;
      this.pos++;
    }
    if (closing) this.problem(src.slice(Math.max(0, start - 1), start + 40), 'an unterminated double quote');
    return { text, dynamic };
  }

  /** `$(…)`, `$((…))`, `${…}`, `$name`, `` `…` ``; returns the text as written, or null for a lone `$`. */
  private readExpansion(): string | null {
    const src = this.src;
    const start = this.pos;
    const c = src[this.pos]!;
    const next = src[this.pos + 1];
    if (c === '`') {
      this.readBackticks();
      return src.slice(start, this.pos);
    }
    if (next === '(' && src[this.pos + 2] === '(') {
      const end = this.matchingClose(this.pos + 3, '(', ')', 2);
      const body = src.slice(this.pos + 3, Math.max(this.pos + 3, end - 2));
      this.pos = end;
      // Arithmetic runs nothing by itself, but may contain a substitution.
      if (/\$\(|`/.test(body)) this.substitution('$((', start);
      new Parser(body, this.out).readExpanding(null);
      return src.slice(start, this.pos);
    }
    if (next === '(') {
      this.pos += 2;
      this.parseList(')');
      this.substitution('$(', start);
      return src.slice(start, this.pos);
    }
    if (next === '{') {
      const end = this.matchingClose(this.pos + 2, '{', '}', 1);
      const body = src.slice(this.pos + 2, Math.max(this.pos + 2, end - 1));
      this.pos = end;
      new Parser(body, this.out).readExpanding(null);
      return src.slice(start, this.pos);
    }
    if (next !== undefined && /[A-Za-z_]/.test(next)) {
      this.pos += 2;
      while (this.pos < src.length && /[A-Za-z0-9_]/.test(src[this.pos]!)) this.pos++;
      return src.slice(start, this.pos);
    }
    if (next !== undefined && /[0-9@*#?$!-]/.test(next)) {
      this.pos += 2;
      return src.slice(start, this.pos);
    }
    return null;
  }

  private readBackticks(): void {
    const src = this.src;
    const start = this.pos;
    let body = '';
    this.pos++;
    while (this.pos < src.length && src[this.pos] !== '`') {
      const c = src[this.pos]!;
      const next = src[this.pos + 1];
      if (c === '\\' && next !== undefined && '$`\\'.includes(next)) {
        body += next;
        this.pos += 2;
        continue;
      }
      body += c;
      this.pos++;
    }
    if (this.pos >= src.length) {
      this.problem(src.slice(start, start + 40), 'an unterminated backtick');
    } else {
      this.pos++;
    }
    this.substitution('`', start);
    new Parser(body, this.out).parseList(null);
  }

  /** `$'…'`: ANSI-C quoting, decoded so `$'\x72m'` reads as `rm`. */
  private readAnsiC(): string {
    const src = this.src;
    const start = this.pos;
    this.pos += 2;
    let text = '';
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
    while (this.pos < src.length && src[this.pos] !== "'") {
      const c = src[this.pos]!;
      if (c !== '\\') {
        text += c;
        this.pos++;
        continue;
      }
      const rest = src.slice(this.pos + 1);
      const hex = /^x([0-9a-fA-F]{1,2})/.exec(rest) ?? /^u([0-9a-fA-F]{1,4})/.exec(rest) ?? /^U([0-9a-fA-F]{1,8})/.exec(rest);
      const oct = /^([0-7]{1,3})/.exec(rest);
      if (hex) {
        text += String.fromCodePoint(parseInt(hex[1]!, 16));
        this.pos += 1 + hex[0].length;
      } else if (oct) {
        text += String.fromCharCode(parseInt(oct[1]!, 8));
        this.pos += 1 + oct[0].length;
      } else if (rest[0] !== undefined && simple[rest[0]] !== undefined) {
        text += simple[rest[0]];
        this.pos += 2;
      } else {
        text += rest[0] ?? '';
        this.pos += 2;
      }
    }
    if (this.pos >= src.length) this.problem(src.slice(start, start + 40), "an unterminated $'…' quote");
    else this.pos++;
    return text;
  }

  /**
   * The index just past the closer that balances `depth` already-open `open`s, skipping quoted
   * text. Returns the end of the source (and records a problem) when it is never closed.
   */
  private matchingClose(from: number, open: string, close: string, depth: number): number {
    const src = this.src;
    let i = from;
    while (i < src.length) {
      const c = src[i]!;
      if (c === '\\') i += 2;
      else if (c === "'") {
        const end = src.indexOf("'", i + 1);
        i = end === -1 ? src.length : end + 1;
      } else if (c === open) {
        depth++;
        i++;
      } else if (c === close) {
        depth--;
        i++;
        if (depth === 0) return i;
      } else i++;
    }
    this.problem(src.slice(Math.max(0, from - 3), from + 40), `a "${open}" is never closed`);
    return src.length;
  }

  private substitution(kind: SubstitutionKind, start: number): void {
    this.out.substitutions.push({ kind, raw: this.src.slice(start, this.pos) });
  }

  private problem(fragment: string, reason: string): void {
    this.out.problems.push({ fragment, reason });
  }
}
