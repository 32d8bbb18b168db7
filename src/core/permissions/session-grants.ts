import { entryOf, mergeScopes, scopeCovers, type GrantScope } from './grant-scope.js';
import type { RiskKind } from './risk.js';

/**
 * Grants a person gave for one session (spec 5.2), kept in memory. They belong to the agent that
 * was asked about, so a grant given to `billing` never lets `triage` through, even inside the same
 * routed conversation (routing never launders permissions, spec 5.1). Each remembers when it was
 * given, so a revocation written later (grant-revocations.ts, from any process) takes it away.
 */
export class SessionGrants {
  private readonly exact = new Map<string, { agent: string; tool: string; args: unknown; at: number }>();
  private readonly anyArgs = new Map<string, { agent: string; tool: string; at: number }>();
  /** One scope per agent and tool: a second grant widens it (mergeScopes). */
  private readonly scoped = new Map<string, { agent: string; scope: GrantScope; at: number }>();
  private readonly bypassed = new Map<string, number>();

  /** Told when a grant is added or taken away (the process publishes what it holds). */
  onChange: (() => void) | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Same tool, same arguments. */
  grantExact(agent: string, tool: string, args: unknown): void {
    this.exact.set(exactKey(agent, tool, args), { agent, tool, args, at: this.now() });
    this.changed();
  }

  /** Same tool, any arguments (only through the explicit "any arguments" choice). */
  grantAny(agent: string, tool: string): void {
    this.anyArgs.set(toolKey(agent, tool), { agent, tool, at: this.now() });
    this.changed();
  }

  /** Same tool, any call whose risks are among those shown (an unknown program: by name). */
  grantRisks(agent: string, tool: string, risks: readonly RiskKind[], programs: readonly string[] = []): void {
    const key = toolKey(agent, tool);
    const add: GrantScope = { tool, risks: new Set(risks), programs: new Set(programs) };
    const had = this.scoped.get(key)?.scope;
    this.scoped.set(key, { agent, scope: (had && mergeScopes(had, add)) ?? add, at: this.now() });
    this.changed();
  }

  /** The person chose to stop being asked about this agent's calls for the rest of the session. */
  bypass(agent: string): void {
    this.bypassed.set(agent, this.now());
    this.changed();
  }

  hasExact(agent: string, tool: string, args: unknown): boolean {
    return this.exact.has(exactKey(agent, tool, args));
  }

  hasAny(agent: string, tool: string): boolean {
    return this.anyArgs.has(toolKey(agent, tool));
  }

  coversRisks(agent: string, tool: string, risks: readonly RiskKind[], programs: readonly string[] = []): boolean {
    const held = this.scoped.get(toolKey(agent, tool));
    return held !== undefined && scopeCovers(held.scope, risks, programs);
  }

  /** The one scope granted for this agent's tool this session, if any (for showing what it covers). */
  scopeOf(agent: string, tool: string): GrantScope | undefined {
    return this.scoped.get(toolKey(agent, tool))?.scope;
  }

  isBypassed(agent: string): boolean {
    return this.bypassed.has(agent);
  }

  /** How many grants are held (list() without building it). */
  get size(): number {
    return this.bypassed.size + this.anyArgs.size + this.scoped.size + this.exact.size;
  }

  /** Everything held, one row per grant (the exact ones with their arguments). */
  list(): HeldSessionGrant[] {
    return [
      ...[...this.bypassed].map(([agent, at]): HeldSessionGrant => ({ grant: 'bypass', agent, entry: '*', at })),
      ...[...this.anyArgs.values()].map((g): HeldSessionGrant => ({ grant: 'any', agent: g.agent, tool: g.tool, entry: g.tool, at: g.at })),
      ...[...this.scoped.values()].map((g): HeldSessionGrant => ({ grant: 'risks', agent: g.agent, tool: g.scope.tool, entry: entryOf(g.scope), at: g.at })),
      ...[...this.exact.values()].map((g): HeldSessionGrant => ({ grant: 'exact', agent: g.agent, tool: g.tool, entry: `${g.tool} ${canonicalJson(g.args)}`, args: g.args, at: g.at })),
    ];
  }

  /** Takes away every grant `drop` picks; returns how many went. */
  revokeWhere(drop: (g: HeldSessionGrant) => boolean): number {
    let n = 0;
    for (const [agent, at] of [...this.bypassed]) if (drop({ grant: 'bypass', agent, entry: '*', at })) n += +this.bypassed.delete(agent);
    for (const [k, g] of [...this.anyArgs]) if (drop({ grant: 'any', agent: g.agent, tool: g.tool, entry: g.tool, at: g.at })) n += +this.anyArgs.delete(k);
    for (const [k, g] of [...this.scoped]) if (drop({ grant: 'risks', agent: g.agent, tool: g.scope.tool, entry: entryOf(g.scope), at: g.at })) n += +this.scoped.delete(k);
    for (const [k, g] of [...this.exact]) if (drop({ grant: 'exact', agent: g.agent, tool: g.tool, entry: `${g.tool} ${canonicalJson(g.args)}`, args: g.args, at: g.at })) n += +this.exact.delete(k);
    if (n > 0) this.changed();
    return n;
  }

  clear(): void {
    this.exact.clear();
    this.anyArgs.clear();
    this.scoped.clear();
    this.bypassed.clear();
    this.changed();
  }

  private changed(): void {
    try {
      this.onChange?.();
    } catch {
      // Publishing what is held must never decide a permission.
    }
  }
}

/** One grant a session holds: `entry` is the scope as written (`bash:network`, `bash`, `*` for the bypass). */
export interface HeldSessionGrant {
  grant: 'exact' | 'any' | 'risks' | 'bypass';
  agent: string;
  tool?: string;
  entry: string;
  args?: unknown;
  /** When it was given (ms since the epoch). */
  at: number;
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
