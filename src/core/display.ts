/**
 * How model-controlled text is shown to a person (terminal prompt, modal, approvals list, chat):
 * visible and inert. A carriage return, an ANSI or OSC escape, a bidi override or a zero-width
 * character must never reach a terminal or a dialog raw, or a command could be shown as another.
 */

/**
 * Characters that are invisible, move the cursor or reorder text: C0 controls (tab and newline
 * excepted), DEL, C1 controls, Unicode format characters (zero-width, bidi embeddings, overrides
 * and isolates, tags, the BOM), line/paragraph separators, Hangul fillers, lone surrogates, and
 * spaces other than the ASCII space (a no-break space looks like a word break but is not one).
 */
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\p{Cs}\u2028\u2029\u115f\u1160\u3164\uffa0\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');

export function hasHiddenCharacters(text: string): boolean {
  return HIDDEN.test(text);
}

function escapeChar(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp === 0x0d) return '\\r';
  if (cp === 0x1b) return '\\e';
  return cp < 0x100 ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u{${cp.toString(16)}}`;
}

/** Text with every hidden character written as an escape (`\e`, `\r`, `\u{202e}`); tabs and newlines stay. */
export function visible(text: string): string {
  return text.replace(HIDDEN_ALL, escapeChar);
}

/** One line for a table cell: hidden characters escaped, and newlines and tabs too. */
export function visibleLine(text: string): string {
  return visible(text).replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}

/** A command line as shown in a prompt: as is when printable, else `$'…'`-quoted so every byte shows. */
export function displayCommand(command: string): string {
  if (!hasHiddenCharacters(command)) return command;
  return ansiCQuote(command);
}

/** `$'…'` quoting (what bash itself would run), escaping every non-printable. */
export function ansiCQuote(text: string): string {
  let out = "$'";
  for (const ch of text) {
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (HIDDEN.test(ch)) out += escapeChar(ch);
    else out += ch;
  }
  return out + "'";
}

/** How a shell word is shown to a person: as is when plain, `$'…'` with hidden characters, else single-quoted. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word)) return word;
  if (hasHiddenCharacters(word)) return ansiCQuote(word);
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A value as short JSON for a prompt or a hint, cut at `max` characters, hidden characters escaped. */
export function preview(value: unknown, max: number): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  s = visible(s);
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

/** Pretty JSON for a dialog, with hidden characters escaped (JSON escapes C0 but not C1 or bidi). */
export function visibleJson(value: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    s = String(value);
  }
  return visible(s);
}

/** JSON text that is still valid JSON but carries no raw hidden character (written as \uXXXX). */
export function inertJson(text: string): string {
  return text.replace(HIDDEN_ALL, (ch) => [...ch].map((c) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')).join(''));
}
