import { basename } from 'node:path';
import type { AllowDecision, ApprovalRequest } from './approval.js';
import { displayCommand, visible, visibleJson } from '../display.js';
import { RISK_LABELS, type RiskKind } from './risk-kinds.js';
import { describeReasons } from './summary.js';

/**
 * What an approval prompt shows, in the words a person reads in three seconds (spec 5.2): who
 * wants to do what, the exact call once, the risks in plain words with what tripped them, why it
 * asks, and the scopes wider than "once" with one line each. Both surfaces (the VS Code modal and
 * the terminal) render this one view, so their wording cannot drift apart. Everything the model
 * controls is made visible and inert (display.ts).
 */
export interface ApprovalView {
  /** "coder wants to run a command in ws". */
  headline: string;
  /** "asked by triage → coder" when the call comes along a route. */
  via?: string;
  /** The exact call, shown once: the command line, the file, or the arguments. */
  body: string;
  /** One line per risk kind: its label and the part of the call that carries it. */
  risks: string[];
  /** Why it asks, beyond the risks listed (a gated tool, outside content, no sandbox…). */
  why: string;
  /** No risk beyond "this tool always asks": the surfaces may show a shorter prompt. */
  short: boolean;
  /** The scopes offered behind "Allow…", narrowest first (empty when only "once" is possible). */
  scopes: ScopeChoice[];
}

export type ScopeKind = Exclude<AllowDecision['kind'], 'allow_once'>;

export interface ScopeChoice {
  kind: ScopeKind;
  /** Short, for a button or a list: "For the rest of this task". */
  label: string;
  /** One line: exactly what it covers. */
  explain: string;
  /** Wide enough that a person confirms it a second time. */
  dangerous: boolean;
  /** The key typed in the terminal. */
  key: string;
}

const MCP_TOOL = /^mcp__(.+?)__(.+)$/;

/** "coder wants to …": the action in words, per tool; names the model chose are made visible. */
function action(request: ApprovalRequest): string {
  const a = (request.args && typeof request.args === 'object' ? request.args : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? visible(v) : undefined);
  const where = basename(request.cwd) || request.cwd;
  switch (request.tool) {
    case 'bash':
      return `run a command in ${visible(where)}`;
    case 'run_script':
      return `run a program in ${visible(where)}`;
    case 'write_file':
      return str(a.path) ? `write ${str(a.path)}` : 'write a file';
    case 'edit_file':
      return str(a.path) ? `edit ${str(a.path)}` : 'edit a file';
    case 'switch_agent':
      return str(a.target) ? `hand this conversation to ${str(a.target)}` : 'hand this conversation to another agent';
    case 'set_route':
      return `${a.action === 'deny' ? 'remove' : 'add'} the route ${str(a.from) ?? visible(request.agent)} → ${str(a.to) ?? '?'}`;
  }
  const mcp = MCP_TOOL.exec(request.tool);
  if (mcp) return `use ${visible(mcp[2]!)} from the MCP server ${visible(mcp[1]!)}`;
  return `use the tool ${visible(request.tool)}`;
}

function body(request: ApprovalRequest): string {
  const a = (request.args && typeof request.args === 'object' ? request.args : {}) as Record<string, unknown>;
  // The core's summary names the call exactly (for commands: the working directory and the command
  // line; for files: the path and what is relative to what), with notes on links and outside paths.
  if (['bash', 'run_script', 'write_file', 'edit_file', 'switch_agent', 'set_route'].includes(request.tool)) {
    if (request.tool !== 'bash' || typeof a.command === 'string') return visible(request.summary);
  }
  return `Arguments: ${visibleJson(request.args)}`;
}

/** One line per risk kind, with what tripped it ("uses the network: curl https://x"). */
function riskLines(request: ApprovalRequest): string[] {
  const byKind = new Map<RiskKind, string[]>();
  for (const h of request.riskHints ?? []) {
    const parts = byKind.get(h.kind) ?? [];
    const what = h.detail ? `${displayCommand(h.fragment)} (${visible(h.detail)})` : displayCommand(h.fragment);
    if (!parts.includes(what)) parts.push(what);
    byKind.set(h.kind, parts);
  }
  for (const k of request.risks ?? []) if (!byKind.has(k)) byKind.set(k, []);
  return [...byKind].map(([kind, parts]) => {
    const label = RISK_LABELS[kind] ?? kind;
    const shown = parts.slice(0, 3).map((p) => (p.length > 120 ? `${p.slice(0, 117)}…` : p));
    return shown.length ? `${label}: ${shown.join(', ')}${parts.length > 3 ? ', …' : ''}` : label;
  });
}

export function scopeChoices(request: ApprovalRequest): ScopeChoice[] {
  if (request.onceOnly) return [];
  const tool = visible(request.tool);
  const agent = visible(request.agent);
  const risks = request.risks?.length ? request.risks.join(', ') : 'none';
  const withRisks = request.risks?.length ? `${tool} calls whose only risks are ${risks}` : `${tool} calls that carry no risk`;
  return [
    { kind: 'allow_task', key: 't', label: 'For the rest of this task', explain: `${withRisks}, until this task ends`, dangerous: false },
    { kind: 'allow_session', key: 's', label: 'This exact call, this session', explain: `${tool} with exactly these arguments, until this conversation ends`, dangerous: false },
    { kind: 'allow_session_risks', key: 'r', label: 'These risks, this session', explain: `${withRisks}, until this conversation ends`, dangerous: false },
    { kind: 'always', key: 'A', label: 'Always, for these risks', explain: `${withRisks}, from now on (saved in ${agent}'s auto_approve)`, dangerous: false },
    { kind: 'allow_session_any', key: 'a', label: 'Any arguments, this session', explain: `${tool} with any arguments at all, until this conversation ends`, dangerous: true },
    { kind: 'always_any', key: 'A*', label: 'Always, any arguments', explain: `${tool} with any arguments at all, from now on (saved)`, dangerous: true },
    { kind: 'bypass_session', key: 'bypass', label: `Stop asking about ${agent}`, explain: `every call of ${agent} runs unasked until this conversation ends (catastrophic commands are still refused)`, dangerous: true },
  ];
}

export function approvalView(request: ApprovalRequest): ApprovalView {
  // Defensive: a surface may hand over a request built by hand (older parked calls, tests).
  const others = (request.why ?? []).filter((w) => w.kind !== 'risk_hints');
  const why = others.length ? describeReasons(request.tool, others, []) : '';
  const risks = riskLines(request);
  return {
    headline: `${visible(request.agent)} wants to ${action(request)}`,
    ...((request.chain ?? []).length > 1 ? { via: `asked by ${request.chain.map(visible).join(' → ')}` } : {}),
    body: body(request),
    risks,
    why,
    short: risks.length === 0 && others.every((w) => w.kind === 'gated_tool'),
    scopes: scopeChoices(request),
  };
}
