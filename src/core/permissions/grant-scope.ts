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
}

const KINDS = new Set<string>(RISK_KINDS);

/** The entry written for a tool and the risks shown. */
export function scopedEntry(tool: string, risks: Iterable<RiskKind>): string {
  const list = [...new Set(risks)].sort();
  return `${tool}:${list.length ? list.join('+') : 'none'}`;
}

/** Reads an entry; a suffix that is not a list of risk kinds means the whole entry is a tool name. */
export function parseEntry(entry: string): GrantScope {
  const at = entry.lastIndexOf(':');
  if (at > 0) {
    const suffix = entry.slice(at + 1);
    const parts = suffix === 'none' ? [] : suffix.split('+');
    if (suffix !== '' && parts.every((p) => KINDS.has(p))) return { tool: entry.slice(0, at), risks: new Set(parts as RiskKind[]) };
  }
  return { tool: entry, risks: null };
}

/** Does this entry cover a call of `tool` carrying `risks`? */
export function entryCovers(entry: string, tool: string, risks: readonly RiskKind[]): boolean {
  if (entry === '*') return true;
  const scope = parseEntry(entry);
  if (scope.tool !== tool) return false;
  return scope.risks === null || risks.every((r) => scope.risks!.has(r));
}

/** Bare tool names in an auto_approve list (they approve every call of the tool, whatever it does). */
export function bareEntries(list: readonly string[] | '*' | undefined): string[] {
  if (!Array.isArray(list)) return [];
  return list.filter((e) => e !== '*' && parseEntry(e).risks === null);
}

export function riskKindsOf(hints: ReadonlyArray<{ kind: RiskKind }> | undefined): RiskKind[] {
  return [...new Set((hints ?? []).map((h) => h.kind))].sort();
}
