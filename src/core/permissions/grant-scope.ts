import { anyArgumentsMayCover, RISK_KINDS, RISK_LABELS, scopedGrantMayCover, type RiskKind } from './risk-kinds.js';

/**
 * A grant is scoped to what the person saw (spec 5.2): the tool and the risks shown with the call.
 * Written `bash:network` (or `bash:delete+write`; `bash:none` for calls with no risk at all) in a
 * session grant or an agent's `auto_approve`. It covers a later call of that tool whose risks are
 * all among those: a grant given for `network` does not cover a delete. A bare tool name (`bash`)
 * keeps its old meaning, every call of the tool; only an explicit "any arguments" choice writes one.
 * No scoped entry covers `code` or `environment` (a program chosen by an option, a hook or a
 * variable), and nothing but an exact-call grant covers `control_file` (risk-kinds.ts). "Always"
 * twice for one tool widens one entry (widenEntries) instead of piling up entries.
 */

export interface GrantScope {
  tool: string;
  /** Null for a bare tool name: any arguments. */
  risks: ReadonlySet<RiskKind> | null;
  /**
   * For a grant that covers `unknown_command`: the programs the person saw (`bash:unknown_command@npm`).
   * A program the barrier cannot judge is only covered by name, so "always" for `npm test` never
   * lets `python3 steal.py` through. Null: no program list (an entry written before lists existed).
   */
  programs: ReadonlySet<string> | null;
}

/** Program names that can stand in an entry; any other name makes the list match nothing. */
const PLAIN_PROGRAM = /^[A-Za-z0-9._-]+$/;
const NO_PROGRAM = '?';

const KINDS = new Set<string>(RISK_KINDS);

/** The entry written for a tool, the risks shown and (for an unknown program) the programs shown. */
export function scopedEntry(tool: string, risks: Iterable<RiskKind>, programs?: readonly string[]): string {
  const list = [...new Set(risks)].sort();
  const base = `${tool}:${list.length ? list.join('+') : 'none'}`;
  return list.includes('unknown_command') ? `${base}@${programList(programs)}` : base;
}

/** The programs of a grant, as written: sorted, or the one name that matches nothing. */
export function programList(programs: readonly string[] | undefined): string {
  const names = [...new Set(programs ?? [])].sort();
  return names.length && names.every((n) => PLAIN_PROGRAM.test(n)) ? names.join(',') : NO_PROGRAM;
}

/** Reads an entry; a suffix that is not a list of risk kinds means the whole entry is a tool name. */
export function parseEntry(entry: string): GrantScope {
  const at = entry.lastIndexOf(':');
  if (at > 0) {
    const [suffix = '', programs] = entry.slice(at + 1).split('@', 2);
    const parts = suffix === 'none' ? [] : suffix.split('+');
    if (suffix !== '' && parts.every((p) => KINDS.has(p))) {
      return { tool: entry.slice(0, at), risks: new Set(parts as RiskKind[]), programs: programs === undefined ? null : new Set(programs.split(',')) };
    }
  }
  return { tool: entry, risks: null, programs: null };
}

/** Does this entry cover a call of `tool` carrying `risks` and running `programs`? */
export function entryCovers(entry: string, tool: string, risks: readonly RiskKind[], programs: readonly string[] = []): boolean {
  if (!anyArgumentsMayCover(risks)) return false;
  if (entry === '*') return true;
  const scope = parseEntry(entry);
  if (scope.tool !== tool) return false;
  if (scope.risks === null) return true;
  return scopeCovers(scope, risks, programs);
}

/** A scoped grant (risks, programs) and a call: all its risks granted, none of them beyond a scoped grant's reach. */
export function scopeCovers(scope: { risks: ReadonlySet<RiskKind> | null; programs: ReadonlySet<string> | null }, risks: readonly RiskKind[], programs: readonly string[]): boolean {
  if (scope.risks === null) return anyArgumentsMayCover(risks);
  return scopedGrantMayCover(risks) && risks.every((r) => scope.risks!.has(r)) && programsCovered(scope.programs, risks, programs);
}

/**
 * Two scopes of one tool made one (spec 5.2): the risks of both, and the programs of both. An
 * entry written before program lists existed (`bash:unknown_command`, any program) is not merged:
 * widening it would widen what it already let through.
 */
export function mergeScopes(a: GrantScope, b: GrantScope): GrantScope | null {
  if (a.tool !== b.tool || a.risks === null || b.risks === null) return null;
  const legacy = (s: GrantScope) => s.programs === null && s.risks!.has('unknown_command');
  if (legacy(a) || legacy(b)) return null;
  const names = new Set([...(a.programs ?? []), ...(b.programs ?? [])]);
  if (names.size > 1) names.delete(NO_PROGRAM);
  const risks = new Set([...a.risks, ...b.risks]);
  return { tool: a.tool, risks, programs: risks.has('unknown_command') ? names : null };
}

/** The entry for a scope, as `scopedEntry` writes it. */
export function entryOf(scope: GrantScope): string {
  if (scope.risks === null) return scope.tool;
  const programs = [...(scope.programs ?? [])].filter((p) => p !== NO_PROGRAM);
  return scopedEntry(scope.tool, scope.risks, programs);
}

/**
 * An `auto_approve` list with `entry` added: a scoped entry widens the tool's existing scoped
 * entry (the first one that can be merged) instead of standing next to it, so "always" for
 * {network} and then for {write} is one entry `bash:network+write`. Bare names, "*" and entries
 * that are not risk lists are kept as written; nothing already there is lost.
 */
export function widenEntries(list: readonly string[], entry: string): string[] {
  if (list.includes(entry)) return [...list];
  const add = parseEntry(entry);
  if (add.risks === null) return [...list, entry];
  const at = list.findIndex((e) => e !== '*' && mergeScopes(parseEntry(e), add) !== null);
  if (at === -1) return [...list, entry];
  const merged = entryOf(mergeScopes(parseEntry(list[at]!), add)!);
  return list.map((e, i) => (i === at ? merged : e)).filter((e, i) => i === at || e !== merged);
}

/** What an `auto_approve` entry (or a session grant of that shape) covers, in one line for a person. */
export function describeGrant(entry: string): string {
  if (entry === '*') return 'every call of every tool (except never-run commands, writes into Pepe\'s home and files that change what runs later)';
  const scope = parseEntry(entry);
  const tool = scope.tool;
  if (scope.risks === null) return `every call of ${tool}, with any arguments (except changes to files that decide what runs later)`;
  if (scope.risks.size === 0) return `${tool} calls that carry no risk at all`;
  const kinds = [...scope.risks].sort();
  const coverable = kinds.filter((k) => scopedGrantMayCover([k]));
  const ignored = kinds.length > coverable.length ? ` (its ${kinds.filter((k) => !coverable.includes(k)).join(', ')} part never applies: a grant scoped to risks never covers that)` : '';
  if (coverable.length === 0) return `${tool} calls that carry no risk at all${ignored}`;
  const words = coverable.map((k) => (k === 'unknown_command' ? describePrograms(scope.programs) : RISK_LABELS[k]));
  return `${tool} calls whose only risks are: ${words.join('; or ')}${ignored}. A call that also runs a program through an option, a hook or a variable is asked`;
}

function describePrograms(programs: ReadonlySet<string> | null): string {
  if (programs === null) return 'running a program the barrier cannot judge (any program: an entry from before program lists)';
  const names = [...programs].filter((p) => p !== NO_PROGRAM);
  if (names.length === 0) return 'running a program the barrier cannot judge (no program: this part matches nothing)';
  return `running ${names.join(', ')} (programs the barrier cannot judge, by name, with plain words and no options)`;
}

/** An unknown program is covered only by name (when the grant lists names). */
export function programsCovered(granted: ReadonlySet<string> | null, risks: readonly RiskKind[], programs: readonly string[]): boolean {
  if (granted === null || !risks.includes('unknown_command')) return true;
  if (granted.has(NO_PROGRAM)) return false;
  return programs.length > 0 && programs.every((p) => granted.has(p));
}

/** Bare tool names in an auto_approve list (they approve every call of the tool, whatever it does). */
export function bareEntries(list: readonly string[] | '*' | undefined): string[] {
  if (!Array.isArray(list)) return [];
  return list.filter((e) => e !== '*' && parseEntry(e).risks === null);
}

export function riskKindsOf(hints: ReadonlyArray<{ kind: RiskKind }> | undefined): RiskKind[] {
  return [...new Set((hints ?? []).map((h) => h.kind))].sort();
}
