/**
 * Capability names a pipeline slot may declare (spec 7): the vocabulary of the contract Pepe
 * adopts (upstream's names and forms), plus Pepe's older spellings, which stay accepted. A
 * capability only lets the slot *ask* the host for an effect: tools still go through the
 * permission barrier, files through the workspace scope, and so on.
 */

/** Capabilities without an argument. */
export const PLAIN_CAPABILITIES = [
  'fs.read',
  'fs.write',
  'network.fetch',
  'terminal.exec',
  'schedule.manage',
  'task.control',
  'job.control',
  'session.read',
  'state.session.read',
  'state.session.write',
  'state.core.read',
  'state.core.write',
  'skill.activate',
  // Pepe's older spellings: `network` is `network.fetch`; reading history needs no capability.
  'network',
  'history.read',
] as const;

/**
 * Capabilities that take `:<name>` (a tool, an agent, a skill, an MCP server, an environment
 * variable, or a state key); `:*` means any, except for `secret.bind`: there it is accepted and
 * grants nothing (a secret is bound by its exact name).
 */
export const NAMED_CAPABILITIES = [
  'tool.call',
  'agents.run',
  'agents.spawn',
  'skill.activate',
  'mcp.connect',
  'mcp.call',
  'secret.bind',
  'state.session.read',
  'state.session.write',
  'state.core.read',
  'state.core.write',
] as const;

/** Families that make no sense without a name. */
const NAME_REQUIRED = ['tool.call', 'agents.run', 'agents.spawn', 'mcp.connect', 'mcp.call', 'secret.bind'];

/** Pepe's older spellings and what they stand for (each grants the other). */
const ALIASES: Record<string, string> = { network: 'network.fetch' };

const NAME = /^(\*|[A-Za-z0-9_][A-Za-z0-9_.@/-]*)$/;

/** Edit distance, for suggestions (short strings: the plain dynamic programme is enough). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The closest known capability to a misspelt one, or null when nothing is close. */
export function suggestCapability(cap: string): string | null {
  const colon = cap.indexOf(':');
  const family = (colon === -1 ? cap : cap.slice(0, colon)).toLowerCase();
  const rest = colon === -1 ? null : cap.slice(colon + 1);
  const candidates: readonly string[] = rest === null ? [...PLAIN_CAPABILITIES, ...NAME_REQUIRED] : NAMED_CAPABILITIES;
  let best: { word: string; d: number } | null = null;
  for (const word of candidates) {
    const d = distance(family, word);
    if (!best || d < best.d) best = { word, d };
  }
  if (!best || best.d === 0 || best.d > Math.max(2, Math.floor(family.length / 3))) return null;
  if (rest !== null) return `${best.word}:${rest}`;
  return NAME_REQUIRED.includes(best.word) ? `${best.word}:<name>` : (ALIASES[best.word] ?? best.word);
}

/** Null when `cap` is a well-formed known capability, else why not (with a suggestion when one is close). */
export function capabilityProblem(cap: string): string | null {
  const colon = cap.indexOf(':');
  const hint = () => {
    const s = suggestCapability(cap);
    return s ? `; did you mean "${s}"?` : `; known: ${[...PLAIN_CAPABILITIES.filter((c) => !(c in ALIASES) && c !== 'history.read'), ...NAMED_CAPABILITIES.map((n) => `${n}:<name>`)].join(', ')}`;
  };
  if (colon === -1) {
    if ((PLAIN_CAPABILITIES as readonly string[]).includes(cap)) return null;
    if (NAME_REQUIRED.includes(cap)) return `capability "${cap}" needs a name: ${cap}:<name> (or ${cap}:* for any)`;
    return `unknown capability "${cap}"${hint()}`;
  }
  const family = cap.slice(0, colon);
  const name = cap.slice(colon + 1);
  if (!(NAMED_CAPABILITIES as readonly string[]).includes(family)) return `unknown capability "${cap}"${hint()}`;
  if (!NAME.test(name)) return `capability "${cap}": "${name}" is not a valid name`;
  return null;
}

/** `secret.bind:*` is accepted in a manifest (as upstream) and grants nothing: a secret is bound by its name only. */
const GRANTS_NOTHING = 'secret.bind:*';

function grantsOne(declared: readonly string[], wanted: string): boolean {
  if (wanted === GRANTS_NOTHING) return false;
  if (declared.includes(wanted)) return true;
  const colon = wanted.indexOf(':');
  const family = colon === -1 ? wanted : wanted.slice(0, colon);
  if (colon !== -1 && family !== 'secret.bind' && declared.includes(`${family}:*`)) return true;
  // A scope-wide state grant covers every key; a write grant covers the matching read.
  if (colon !== -1 && family.startsWith('state.') && declared.includes(family)) return true;
  if (family.endsWith('.read') && family.startsWith('state.')) {
    const write = `${family.slice(0, -'.read'.length)}.write`;
    if (grantsOne(declared, colon === -1 ? write : `${write}${wanted.slice(colon)}`)) return true;
  }
  if (family === 'skill.activate' && declared.includes('skill.activate')) return true;
  return false;
}

/**
 * Whether `declared` grants `wanted`: an exact match, `family:*` for any name (never for
 * `secret.bind`), a scope-wide state grant for any key, a `.write` for the matching `.read`, and
 * the older spellings for their new names.
 */
export function grants(declared: readonly string[], wanted: string): boolean {
  if (grantsOne(declared, wanted)) return true;
  for (const [old, now] of Object.entries(ALIASES)) {
    if (wanted === now && declared.includes(old)) return true;
    if (wanted === old && grantsOne(declared, now)) return true;
  }
  return false;
}

/**
 * What to tell a slot that lacks `wanted`: where to grant it, in words the checker accepts; or,
 * when the name itself is not one the checker knows, that (with the closest known name).
 */
export function capabilityAdvice(wanted: string, manifestFile: string): string {
  const why = capabilityProblem(wanted);
  if (why) return `${why}. No slot.yaml can grant it`;
  if (wanted === GRANTS_NOTHING) return `secret.bind:* grants nothing: name the one environment variable, secret.bind:<NAME>, in "capabilities:" in ${manifestFile}`;
  return `add it to "capabilities:" in ${manifestFile} (or grant it under capabilities.defaults in the core's agent.yaml)`;
}
