/**
 * Spec 8: secret values never leave Pepe in the clear — not in the `--json` event stream, a log
 * line, a transcript or a parked approval. A value is found in every spelling it takes on the way
 * out: as is, JSON-escaped (a quote or a backslash in a key changes its text), JSON-escaped twice
 * (a JSON document inside a JSON string, e.g. tool arguments), with non-ASCII as `\uXXXX` (what
 * ASCII-only serialisers write) and percent-encoded (a key in a URL).
 *
 * Which values are secret is decided elsewhere (`secretValues` in scrub.ts: the values of
 * `api_key_env` variables, SecretStorage keys overlaid on them, and variables whose names look
 * like secrets); this file only finds and masks them. Credential-shaped values (a private key, a
 * bearer token, `DB_PASSWORD=…`) are masked by their shape too, known or not: credential-patterns.ts.
 */

import { maskCredentials, REDACTED, safeCut } from './credential-patterns.js';

export { REDACTED };

function jsonInner(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** `\uXXXX` for every character outside printable ASCII (after JSON escaping). */
function asciiEscaped(jsonText: string, upper: boolean): string {
  return jsonText.replace(/[^\x20-\x7e]/g, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
}

/** Every spelling of `secret` this file looks for, longest first. */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  const once = jsonInner(secret);
  for (const form of [once, asciiEscaped(once, false), asciiEscaped(once, true)]) {
    forms.add(form);
    forms.add(jsonInner(form));
  }
  try {
    forms.add(encodeURIComponent(secret));
  } catch {
    // a lone surrogate cannot be percent-encoded; the other forms still apply
  }
  return [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
}

/** A form that may stand inside a JSON string literal as is (it contains nothing JSON would escape). */
const isLiteralSafe = (form: string) => jsonInner(form) === form || /^(?:[^"\\\u0000-\u001f]|\\["\\/bfnrtu])*$/.test(form);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function alternation(forms: readonly string[]): RegExp | null {
  return forms.length ? new RegExp(forms.map(escapeRe).join('|'), 'g') : null;
}

/**
 * Masks a fixed set of secret values. Build one per output (a run's event stream, a log line):
 * the forms are computed once.
 */
export class Redactor {
  readonly secrets: readonly string[];
  /** Every form, longest first. */
  readonly forms: readonly string[];
  private readonly all: RegExp | null;
  private readonly literalSafe: RegExp | null;

  constructor(secrets: Iterable<string>) {
    this.secrets = [...new Set([...secrets].filter((s) => typeof s === 'string' && s.length > 0))];
    const forms = [...new Set(this.secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
    this.forms = forms;
    this.all = alternation(forms);
    this.literalSafe = alternation(forms.filter(isLiteralSafe));
  }

  /** No known secret values (credential shapes are still masked). */
  get empty(): boolean {
    return this.all === null;
  }

  /** Plain text with every form of every known secret masked, and every credential-shaped value. */
  text(text: string): string {
    return text ? maskCredentials(this.known(text)) : text;
  }

  /** Plain text with the known secrets masked only (the stream masks shapes at safe cuts itself). */
  known(text: string): string {
    if (!this.all || !text) return text;
    this.all.lastIndex = 0;
    return text.replace(this.all, REDACTED);
  }

  /** A deep copy of `value` with every string (and object key) masked; other values as they are. */
  value<T>(value: T): T {
    return this.walk(value, [], true) as T;
  }

  /**
   * `JSON.stringify` of the masked value, then the serialised text masked again: escaping can turn
   * a harmless string into a secret's spelling. The second pass keeps the document valid JSON.
   */
  json(value: unknown, space?: number): string {
    // Only serialised: what needs no masking is not copied first (a transcript line is mostly that).
    const masked = this.walk(value, [], false);
    const text = JSON.stringify(masked, null, space) ?? 'null';
    if (!this.all) return text;
    this.all.lastIndex = 0;
    const strict = text.replace(this.all, REDACTED);
    if (strict === text) return text;
    try {
      JSON.parse(strict);
      return strict;
    } catch {
      // A raw form matched across the document's own quotes; mask only what may stand in a string.
      if (!this.literalSafe) return text;
      this.literalSafe.lastIndex = 0;
      return text.replace(this.literalSafe, REDACTED);
    }
  }

  /**
   * `value` with every string and key masked. `copy`: a new array or object for each one met;
   * otherwise one only where something inside changed, and the value itself where nothing did.
   * `open` holds the arrays and objects being walked (a value met again inside itself is a cycle).
   */
  private walk(value: unknown, open: object[], copy: boolean): unknown {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    if (open.includes(value)) return '[circular]';
    open.push(value);
    try {
      if (Array.isArray(value)) {
        let out: unknown[] | null = copy ? new Array<unknown>(value.length) : null;
        for (let i = 0; i < value.length; i++) {
          const v: unknown = value[i];
          const w = this.walk(v, open, copy);
          if (out) out[i] = w;
          else if (w !== v) {
            out = value.slice(0, i);
            out[i] = w;
          }
        }
        return out ?? value;
      }
      // What JSON.stringify would write for it (a Date, an object with its own toJSON), masked.
      const json = (value as { toJSON?: () => unknown }).toJSON;
      if (typeof json === 'function') return this.walk(json.call(value), open, copy);
      if (!isPlain(value)) return value instanceof Error ? this.text(String(value)) : value;
      let out: Record<string, unknown> | null = copy ? {} : null;
      const keys = Object.keys(value);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        const v = (value as Record<string, unknown>)[k];
        const mk = this.text(k);
        const w = this.walk(v, open, copy);
        if (!out && (w !== v || mk !== k)) {
          out = {};
          for (let j = 0; j < i; j++) setOwn(out, keys[j]!, (value as Record<string, unknown>)[keys[j]!]);
        }
        if (out) setOwn(out, mk, w);
      }
      return out ?? value;
    } finally {
      open.pop();
    }
  }
}

/** `out[key] = value` as an own property, `__proto__` too (plain assignment would set the prototype). */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** One-off masking of plain text (or of a serialised JSON line): every form of every secret. */
export function redactText(text: string, secrets: readonly string[]): string {
  return new Redactor(secrets).text(text);
}

/**
 * Masks a stream of text pieces (an answer arriving delta by delta) so that a secret split
 * across pieces is still caught: the tail that could be the start of a secret is held back until
 * the next piece shows whether it is one. Two stages: credential shapes first, on text cut where
 * masking a part alone is the same as masking the whole (`safeCut`: after a word, or a line when
 * it holds an assignment or a header), then known values, whose possible starts are held back.
 */
export class StreamRedactor {
  private held = '';
  private unshaped = '';

  constructor(private readonly redactor: Redactor) {}

  /** What can be shown now, masked; may be '' while a possible secret's start is held back. */
  push(piece: string): string {
    const text = this.unshaped + piece;
    const cut = safeCut(text);
    this.unshaped = text.slice(cut);
    return this.pushKnown(maskCredentials(text.slice(0, cut)));
  }

  private pushKnown(piece: string): string {
    if (this.redactor.empty) return piece;
    const masked = this.redactor.known(this.held + piece);
    const keep = this.heldTail(masked);
    this.held = masked.slice(masked.length - keep);
    return masked.slice(0, masked.length - keep);
  }

  /** The rest, at the end of the stream (it holds no whole secret). */
  flush(): string {
    const rest = this.redactor.text(this.held + maskCredentials(this.unshaped));
    this.held = '';
    this.unshaped = '';
    return rest;
  }

  get pending(): boolean {
    return this.held.length > 0 || this.unshaped.length > 0;
  }

  /** Length of the longest suffix of `text` that is a proper prefix of some form. */
  private heldTail(text: string): number {
    let best = 0;
    const last = text.charCodeAt(text.length - 1);
    for (const form of this.redactor.forms) {
      for (let k = Math.min(form.length - 1, text.length); k > best; k--) {
        if (form.charCodeAt(k - 1) === last && endsWithPrefix(text, form, k)) {
          best = k;
          break;
        }
      }
    }
    return best;
  }
}

/** `text` ends with the first `k` characters of `form` (without building the slice). */
function endsWithPrefix(text: string, form: string, k: number): boolean {
  const start = text.length - k;
  for (let i = 0; i < k; i++) if (text.charCodeAt(start + i) !== form.charCodeAt(i)) return false;
  return true;
}
