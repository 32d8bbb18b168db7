import { RISK_KINDS, type RiskKind } from './risk.js';

/**
 * A grant is scoped to what the person saw (spec 5.2): the tool and the risks shown with the call.
 * Written `bash:network` (or `bash:delete+write`; `bash:none` for calls with no risk at all) in a
 * session grant or an agent's `auto_approve`. It covers a later call of that tool whose risks are
 * all among those: a grant given for `network` does not cover a delete. A bare tool name (`bash`)
 * keeps its old meaning, every call of the tool; only an explicit "any arguments" choice writes one.
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
  if (entry === '*') return true;
  const scope = parseEntry(entry);
  if (scope.tool !== tool) return false;
  if (scope.risks === null) return true;
  return risks.every((r) => scope.risks!.has(r)) && programsCovered(scope.programs, risks, programs);
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
