import type { AgentConfig, ModelConfig, PepeConfig } from '../config/schema.js';
import { PepeError } from '../errors.js';
import type { UsageRecord } from './usage.js';

/**
 * Budgets (issue 25): before each model call, the worst case of that call — its estimated input
 * plus the most the model may write, at the model's prices — is checked against what is left of
 * every budget that applies. A call that could exceed one is not made.
 *
 * - The conversation's budget: `agents.<a>.limits.max_cost`, else the top-level `limits.max_cost`,
 *   against what this session has spent (a consulted agent's run is a session of its own).
 * - The project's: its `spend_cap_usd`, against what the project has spent in all.
 */

export interface Budget {
  /** In words, for the message that stops a turn ("the conversation budget (limits.max_cost, $0.50)"). */
  name: string;
  limitUsd: number;
  spentUsd: number;
}

/** Sums below a millionth of a cent are float noise, not spend: exactly at the limit is within it. */
const EPSILON_USD = 1e-8;

/** The most one call may cost: `inputTokens` and `maxOutputTokens` at the model's per-million prices. */
export function worstCaseUsd(inputTokens: number, maxOutputTokens: number, price: ModelConfig['price'] | undefined): number {
  if (!price) return 0;
  return (inputTokens * (price.input_per_mtok ?? 0) + maxOutputTokens * (price.output_per_mtok ?? 0)) / 1_000_000;
}

/** Null when a call costing at most `worstUsd` fits every budget; otherwise why it does not. */
export function budgetRefusal(worstUsd: number, budgets: readonly Budget[]): string | null {
  for (const b of budgets) {
    const left = b.limitUsd - b.spentUsd;
    if (worstUsd > 0 && b.spentUsd + worstUsd > b.limitUsd + EPSILON_USD) {
      return `${b.name} could be exceeded: this call may cost up to ${usd(worstUsd)} and ${usd(Math.max(0, left))} of ${usd(b.limitUsd)} is left`;
    }
  }
  return null;
}

/** The budgets that apply to a model call of `agent` in `sessionId`, from the spend records. */
export function budgetsFor(config: PepeConfig, agentConfig: AgentConfig, project: string | null, sessionId: string | undefined, records: () => readonly UsageRecord[]): Budget[] {
  const own = agentConfig.limits?.max_cost;
  const conversation = own ?? config.limits?.max_cost;
  const cap = project ? config.projects?.[project]?.spend_cap_usd : undefined;
  if (conversation === undefined && cap === undefined) return [];
  const all = records();
  const out: Budget[] = [];
  if (conversation !== undefined) {
    const spent = sessionId ? sum(all.filter((r) => r.sessionId === sessionId)) : 0;
    const where = own !== undefined ? 'agents.<agent>.limits.max_cost' : 'limits.max_cost';
    out.push({ name: `the conversation budget (${where}, ${usd(conversation)})`, limitUsd: conversation, spentUsd: spent });
  }
  if (cap !== undefined && project) out.push({ name: `project ${project}'s spend cap (${usd(cap)})`, limitUsd: cap, spentUsd: sum(all.filter((r) => r.project === project)) });
  return out;
}

/** A model call was not made because it could exceed a budget: the turn stops cleanly, with this message. */
export class BudgetStop extends PepeError {
  constructor(message: string) {
    super(message);
    this.name = 'BudgetStop';
  }
}

function sum(records: readonly UsageRecord[]): number {
  return records.reduce((n, r) => n + r.costUsd, 0);
}

export function usd(n: number): string {
  if (n === 0) return '$0';
  return n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}
