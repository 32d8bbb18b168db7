import { mergeScopes, scopeCovers, type GrantScope } from './grant-scope.js';
import type { RiskKind } from './risk.js';

/**
 * Grants a person gave for one session (spec 5.2), kept in memory. They belong to the agent that
 * was asked about, so a grant given to `billing` never lets `triage` through, even inside the same
 * routed conversation (routing never launders permissions, spec 5.1).
 */
export class SessionGrants {
  private readonly exact = new Set<string>();
  private readonly anyArgs = new Set<string>();
  /** One scope per agent and tool: a second grant widens it (mergeScopes). */
  private readonly scoped = new Map<string, GrantScope>();
  private readonly bypassed = new Set<string>();

  /** Same tool, same arguments. */
  grantExact(agent: string, tool: string, args: unknown): void {
    this.exact.add(exactKey(agent, tool, args));
  }

  /** Same tool, any arguments (only through the explicit "any arguments" choice). */
  grantAny(agent: string, tool: string): void {
    this.anyArgs.add(toolKey(agent, tool));
  }

  /** Same tool, any call whose risks are among those shown (an unknown program: by name). */
  grantRisks(agent: string, tool: string, risks: readonly RiskKind[], programs: readonly string[] = []): void {
    const key = toolKey(agent, tool);
    const add: GrantScope = { tool, risks: new Set(risks), programs: new Set(programs) };
    const had = this.scoped.get(key);
    this.scoped.set(key, (had && mergeScopes(had, add)) ?? add);
  }

  /** The person chose to stop being asked about this agent's calls for the rest of the session. */
  bypass(agent: string): void {
    this.bypassed.add(agent);
  }

  hasExact(agent: string, tool: string, args: unknown): boolean {
    return this.exact.has(exactKey(agent, tool, args));
  }

  hasAny(agent: string, tool: string): boolean {
    return this.anyArgs.has(toolKey(agent, tool));
  }

  coversRisks(agent: string, tool: string, risks: readonly RiskKind[], programs: readonly string[] = []): boolean {
    const scope = this.scoped.get(toolKey(agent, tool));
    return scope !== undefined && scopeCovers(scope, risks, programs);
  }

  /** The one scope granted for this agent's tool this session, if any (for showing what it covers). */
  scopeOf(agent: string, tool: string): GrantScope | undefined {
    return this.scoped.get(toolKey(agent, tool));
  }

  isBypassed(agent: string): boolean {
    return this.bypassed.has(agent);
  }

  clear(): void {
    this.exact.clear();
    this.anyArgs.clear();
    this.scoped.clear();
    this.bypassed.clear();
  }
}

const toolKey = (agent: string, tool: string) => JSON.stringify([agent, tool]);
const exactKey = (agent: string, tool: string, args: unknown) => JSON.stringify([agent, tool, canonicalJson(args)]);

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` are the same arguments. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}
