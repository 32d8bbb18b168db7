import type * as z from '../zod.js';

/** `agents.triage.tools[0]` from a zod path. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(top level)';
}

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

/** One line a person can act on: where, what is wrong, and what to do. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = jsonPath(issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      // zod says "record" for a map of named entries; in JSON that is simply an object.
      const expected = issue.expected === 'record' ? 'object' : String(issue.expected);
      return `${where}: expected ${article(expected)}; make it ${article(expected)}`;
    }
    case 'invalid_value':
      return `${where}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return `${where}: must be ${issue.origin === 'array' || issue.origin === 'string' ? `at least ${issue.minimum} long` : `${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`}`;
    case 'too_big':
      return `${where}: must be ${issue.origin === 'array' || issue.origin === 'string' ? `at most ${issue.maximum} long` : `${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`}`;
    case 'unrecognized_keys':
      return `${where}: unknown keys ${issue.keys.join(', ')}; remove them`;
    case 'invalid_key':
      return `${where}: invalid key: ${issue.issues.map((i) => i.message).join('; ')}; rename it`;
    default:
      return `${where}: ${issue.message}`;
  }
}

/**
 * JSON.parse quotes the file's own bytes in its message: a damaged (or hostile) file must not put
 * control or bidi characters into a terminal, a log or a notification, so they are shown escaped.
 */
function inert(message: string): string {
  return message.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Turns JSON.parse's "at position N" into a line and column. */
export function describeParseError(text: string, rawError: Error): string {
  const error = new Error(inert(rawError.message));
  const m = /position (\d+)/.exec(error.message);
  if (!m) {
    const lines = text.split('\n').length;
    if (/end of JSON input/.test(error.message)) return `not valid JSON: the file ends too early (at line ${lines}); something is not closed`;
    return `not valid JSON (${error.message})`;
  }
  const pos = Number(m[1]);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `not valid JSON at line ${line}, column ${column} (${error.message.replace(/ in JSON at position \d+.*$/, '')})`;
}
