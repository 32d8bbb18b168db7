import { closeSync, constants, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import * as z from '../zod.js';
import { describeIssue, describeParseError } from '../config/problems.js';
import { UsageError, errorMessage } from '../errors.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * A mock script (spec 4.2): `{"steps": [ … ]}`, one step per model call. Steps are strict objects so
 * a typo such as `"tool_call"` is reported instead of silently replying with nothing.
 */
export const MockScriptToolCall = lazySchema(() =>
  z.strictObject({
    name: z.string().check(z.minLength(1)),
    arguments: z.optional(z.unknown()),
  }),
);

export const MockScriptStep = lazySchema(() =>
  z
    .strictObject({
      text: z.optional(z.string()),
      tool_calls: z.optional(z.array(MockScriptToolCall)),
      echo_prompt: z.optional(z.literal(true)),
      /** Pause before each delta, so tests of Stop/cancel have something to interrupt. */
      delay_ms: z.optional(z.number().check(z.int(), z.nonnegative())),
      /** Characters per text delta (default: the text in about four deltas). */
      chunk_size: z.optional(z.number().check(z.int(), z.positive())),
    })
    .check(
      z.refine((s) => s.text !== undefined || s.tool_calls !== undefined || s.echo_prompt === true, {
        message: 'a step needs "text", "tool_calls" or "echo_prompt": true',
      }),
      z.refine((s) => !(s.echo_prompt && s.text !== undefined), {
        message: '"echo_prompt" replies with the prompt, so it cannot also have "text"',
      }),
    ),
);
export type MockScriptStep = z.infer<typeof MockScriptStep>;

// Loose at the top so a script may carry a "description" or "$schema" for the people who read it.
export const MockScript = lazySchema(() => z.looseObject({ steps: z.array(MockScriptStep) }));
export type MockScript = z.infer<typeof MockScript>;

/**
 * The file's text, only if it is a regular file: opened without blocking and checked on the open
 * descriptor, so a named pipe or a device (`mock:/dev/stdin`) is refused instead of blocking the
 * process for ever, also when the path is swapped after a check.
 */
function readRegularFile(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error('not a regular file');
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Reads and validates a script; every problem names the file and the JSON path. */
export function loadMockScript(file: string): MockScript {
  let text: string;
  try {
    text = readRegularFile(file);
  } catch (e) {
    throw new UsageError(`mock script ${file}: cannot read it (${errorMessage(e)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`mock script ${file}: ${describeParseError(text, e as Error)}`);
  }
  const parsed = MockScript.safeParse(json);
  if (!parsed.success) {
    throw new UsageError(`mock script ${file}: ${parsed.error.issues.map(describeIssue).join('; ')}`);
  }
  return parsed.data;
}

/** The last scripts read, by file, while the file is unchanged (same inode, size and modification time). */
const cache = new Map<string, { stamp: string; script: MockScript }>();
const MAX_CACHED = 32;

/** `value` and everything in it made read-only; returns it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * `loadMockScript` for a provider built on every model call: a file that did not change since it
 * was last read is not read, parsed and validated again. The script handed out is read-only (the
 * provider copies what it passes on), so no caller can change what the next one plays; it is
 * not copied whole per call, which cost a structured clone of every step on every model call.
 */
export function loadMockScriptCached(file: string): MockScript {
  let stamp: string | null = null;
  try {
    // Plain numbers: a bigint stat and its text cost several times more, and the times as
    // fractional milliseconds still tell apart writes a fraction of a microsecond apart.
    const st = statSync(file);
    stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    // loadMockScript reports it
  }
  const hit = stamp === null ? undefined : cache.get(file);
  if (hit && hit.stamp === stamp) return hit.script;
  const script = deepFreeze(loadMockScript(file));
  if (stamp !== null) {
    cache.delete(file);
    cache.set(file, { stamp, script });
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  }
  return script;
}

