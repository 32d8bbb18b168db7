import type { PepeConfig, Tier } from '../config/schema.js';
import { budgetsFor, usd } from './budget.js';
import { COMPACTION_THRESHOLD, contextWindowOf } from './compaction.js';
import type { UsageLedger, UsageRecord } from './usage.js';

/**
 * What a conversation costs, while it runs (issue 25): one set of figures for the chat's context
 * meter, the status line `pepe chat` prints after each turn and `pepe usage --session`.
 */
export interface Totals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface ConversationFigures {
  /** The calls of one turn (its consulted agents' included), when a turn is named. */
  turn: Totals | null;
  /** This session's own calls. */
  conversation: Totals;
  /**
   * The model's context as the last call of this session filled it: its input and its answer
   * (what the next call starts from), the model's window, and where compaction begins (spec 4.5).
   */
  context: { model: string; usedTokens: number; windowTokens: number; compactAtTokens: number; compacted: boolean } | null;
  /** The conversation's budget (limits.max_cost), when one is set. */
  budget: { limitUsd: number; spentUsd: number } | null;
  /** The agent's project: its spend against its cap, and its tier. */
  project: { name: string; spendUsd: number; capUsd: number | null; tier: Tier } | null;
}

export interface FiguresInput {
  config: PepeConfig;
  usage: Pick<UsageLedger, 'all' | 'projectUsage'>;
  agent: string;
  sessionId: string;
  /** The turns whose calls make "this turn" (the top turn and the consulted agents' turns). */
  turnIds?: readonly string[];
  /** The session was compacted (its transcript holds a compaction). */
  compacted?: boolean;
}

const NONE: Totals = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
const add = (t: Totals, r: UsageRecord): Totals => ({ calls: t.calls + 1, inputTokens: t.inputTokens + r.inputTokens, outputTokens: t.outputTokens + r.outputTokens, costUsd: t.costUsd + r.costUsd });

export function conversationFigures(input: FiguresInput): ConversationFigures {
  const { config, agent, sessionId } = input;
  const records = input.usage.all();
  const mine = records.filter((r) => r.sessionId === sessionId);
  const turns = input.turnIds ? new Set(input.turnIds) : null;
  const turn = turns ? records.filter((r) => r.turnId !== undefined && turns.has(r.turnId)).reduce(add, NONE) : null;
  const last = mine[mine.length - 1];
  let context: ConversationFigures['context'] = null;
  if (last) {
    const windowTokens = contextWindowOf({ id: last.model }, config);
    context = { model: last.model, usedTokens: last.inputTokens + last.outputTokens, windowTokens, compactAtTokens: Math.floor(windowTokens * COMPACTION_THRESHOLD), compacted: input.compacted === true };
  }
  const agentConfig = config.agents?.[agent] ?? {};
  const projectName = agentConfig.project ?? null;
  const conversationBudget = budgetsFor(config, agentConfig, null, sessionId, () => records)[0];
  const p = projectName ? input.usage.projectUsage(config, projectName) : null;
  return {
    turn,
    conversation: mine.reduce(add, NONE),
    context,
    budget: conversationBudget ? { limitUsd: conversationBudget.limitUsd, spentUsd: conversationBudget.spentUsd } : null,
    project: p ? { name: p.project, spendUsd: p.spendUsd, capUsd: p.capUsd, tier: p.tier } : null,
  };
}

const tokens = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toLocaleString('en-US'));
const totals = (t: Totals) => `${tokens(t.inputTokens + t.outputTokens)} tokens${t.costUsd > 0 ? `, ${usd(t.costUsd)}` : ''}`;

/** One line: `turn 1,234 tokens, $0.0012 · conversation … · context 3.2k of 128.0k (compacts at 76.8k) · budget … · project …`. */
export function statusLine(f: ConversationFigures): string {
  const parts: string[] = [];
  if (f.turn) parts.push(`turn ${totals(f.turn)}`);
  parts.push(`conversation ${totals(f.conversation)}`);
  if (f.context) {
    const c = f.context;
    const pct = Math.round((c.usedTokens / c.windowTokens) * 100);
    parts.push(`context ${tokens(c.usedTokens)} of ${tokens(c.windowTokens)} (${pct}%; ${c.compacted ? 'compacted' : `compacts at ${tokens(c.compactAtTokens)}`})`);
  }
  if (f.budget) parts.push(`budget ${usd(f.budget.spentUsd)} of ${usd(f.budget.limitUsd)}`);
  if (f.project) parts.push(`project ${f.project.name} ${usd(f.project.spendUsd)}${f.project.capUsd !== null ? ` of ${usd(f.project.capUsd)}` : ''}, ${f.project.tier.replace('_', ' ')}`);
  return parts.join(' · ');
}
