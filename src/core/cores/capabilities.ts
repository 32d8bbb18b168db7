/**
 * Capability names a pipeline slot may declare in `slot.yaml` (spec 7). A capability only lets the
 * slot *ask* the host for an effect: tools still go through the permission barrier, files through
 * the workspace scope, and so on.
 */

/** Capabilities without an argument. */
export const PLAIN_CAPABILITIES = [
  'fs.read',
  'fs.write',
  'network',
  'history.read',
  'state.session.read',
  'state.session.write',
  'state.core.read',
  'state.core.write',
  'skill.activate',
] as const;

/** Capabilities that take `:<name>` (a tool, an agent or a skill); `:*` means any. */
export const NAMED_CAPABILITIES = ['tool.call', 'agents.run', 'agents.spawn', 'skill.activate'] as const;

/** Null when `cap` is a well-formed known capability, else why not. */
export function capabilityProblem(cap: string): string | null {
  const colon = cap.indexOf(':');
  if (colon === -1) {
    if ((PLAIN_CAPABILITIES as readonly string[]).includes(cap)) return null;
    if ((NAMED_CAPABILITIES as readonly string[]).includes(cap)) return `capability "${cap}" needs a name: ${cap}:<name> (or ${cap}:* for any)`;
    return `unknown capability "${cap}"; known: ${[...PLAIN_CAPABILITIES, ...NAMED_CAPABILITIES.map((n) => `${n}:<name>`)].join(', ')}`;
  }
  const family = cap.slice(0, colon);
  const name = cap.slice(colon + 1);
  if (!(NAMED_CAPABILITIES as readonly string[]).includes(family)) {
    return `unknown capability "${cap}"; only ${NAMED_CAPABILITIES.join(', ')} take a ":<name>"`;
  }
  if (!/^(\*|[A-Za-z0-9_][A-Za-z0-9_.@/-]*)$/.test(name)) return `capability "${cap}": "${name}" is not a valid name`;
  return null;
}

/**
 * Whether `declared` grants `wanted`: an exact match, `family:*` for any name, a `.write` grants the
 * matching `.read`.
 */
export function grants(declared: readonly string[], wanted: string): boolean {
  if (declared.includes(wanted)) return true;
  const colon = wanted.indexOf(':');
  if (colon !== -1 && declared.includes(`${wanted.slice(0, colon)}:*`)) return true;
  if (wanted.endsWith('.read') && declared.includes(`${wanted.slice(0, -'.read'.length)}.write`)) return true;
  if (wanted.startsWith('skill.activate:') && declared.includes('skill.activate')) return true;
  return false;
}
