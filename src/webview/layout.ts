/// <reference lib="dom" />
import type { AgentInfo, ModelChoice, PanelState } from '../protocol/messages.js';
import { h, icon, iconButton } from './dom.js';

/** The panel's fixed parts: header (pickers, tier, new session, history), history list, transcript, composer. */
export interface Layout {
  agent: HTMLSelectElement;
  model: HTMLSelectElement;
  tier: HTMLElement;
  /** Outside content in this conversation: pre-approvals paused, with "Trust again" (spec 5.3). */
  taint: HTMLElement;
  taintText: HTMLElement;
  /** This session's tokens and cost. */
  usage: HTMLElement;
  /** The context meter: tokens in the model's window, and when compaction starts or that it happened. */
  context: HTMLElement;
  historyButton: HTMLButtonElement;
  history: HTMLElement;
  historyList: HTMLElement;
  historySearch: HTMLInputElement;
  transcript: HTMLElement;
  input: HTMLTextAreaElement;
  send: HTMLButtonElement;
  stop: HTMLButtonElement;
  /** The mode switch: plan mode (only tools that read run) or acting. */
  planMode: HTMLButtonElement;
  /** Hands the last plan over in acting mode. */
  startPlan: HTMLButtonElement;
  status: HTMLElement;
}

export function buildLayout(app: HTMLElement): Layout {
  const agent = h('select', { id: 'agent', 'aria-label': 'Agent (switching starts a new session)', title: 'Agent' });
  const model = h('select', { id: 'model', 'aria-label': 'Model', title: 'Model' });
  const tier = h('span', { class: 'badge tier', hidden: true, role: 'status' });
  const usage = h('span', { class: 'session-usage', hidden: true, 'data-kind': 'session-usage' });
  const taintText = h('span', { class: 'taint-text' }, 'Outside content read: pre-approvals paused');
  const taint = h(
    'span',
    { class: 'badge warning taint', hidden: true, role: 'status', 'data-kind': 'taint' },
    icon('warning'),
    taintText,
    h('button', { type: 'button', class: 'link-button', 'data-action': 'trust-session', title: 'I have read it: trust this conversation again (pre-approved calls run without asking again)' }, 'Trust again'),
  );
  const context = h('span', { class: 'context-meter', hidden: true, 'data-kind': 'context-meter', role: 'status' });
  const historyButton = iconButton('history', 'Session history', 'toggle-history', { 'aria-expanded': 'false', 'aria-controls': 'history' });
  const header = h(
    'header',
    { class: 'toolbar', role: 'toolbar', 'aria-label': 'Chat controls' },
    h('label', { class: 'picker' }, icon('hubot'), agent),
    h('label', { class: 'picker' }, icon('sparkle'), model),
    tier,
    taint,
    h('span', { class: 'spacer' }),
    context,
    usage,
    iconButton('add', 'New session', 'new-session'),
    historyButton,
  );
  const historyList = h('ul', { class: 'history-list' });
  const historySearch = h('input', { type: 'search', class: 'history-search', 'aria-label': 'Search sessions by title, agent or what was said', placeholder: 'Search sessions…' });
  const history = h('section', { id: 'history', class: 'history', hidden: true, 'aria-label': 'Session history' }, h('h2', {}, 'Sessions'), historySearch, historyList);
  const transcript = h('main', { id: 'transcript', class: 'transcript', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation', tabindex: '0' });
  const input = h('textarea', { id: 'input', rows: '3', 'aria-label': 'Message (Enter sends, Shift+Enter adds a line, /agent NAME switches agent, / lists commands and prompts)', placeholder: 'Message… (Enter to send, Shift+Enter for a new line, / for commands and prompts)' });
  const send = h('button', { type: 'button', class: 'primary', 'data-action': 'send', 'aria-label': 'Send', title: 'Send (Enter)' }, icon('send'), ' Send');
  const stop = h('button', { type: 'button', class: 'secondary', 'data-action': 'stop', 'aria-label': 'Stop the turn', title: 'Stop', hidden: true }, icon('debug-stop'), ' Stop');
  const status = h('div', { class: 'sr-status', role: 'status', 'aria-live': 'polite' });
  const planMode = h('button', { type: 'button', class: 'mode-switch', 'data-action': 'toggle-plan', 'aria-pressed': 'false', title: 'Plan mode: only tools that read run; the agent answers with a plan (/plan, /act)' }, icon('checklist'), ' Plan');
  const startPlan = h('button', { type: 'button', class: 'secondary', 'data-action': 'start-plan', hidden: true, title: 'Carry out the plan in acting mode (/start, or /start AGENT for another agent)' }, icon('play'), ' Start');
  const composer = h('footer', { class: 'composer' }, input, h('div', { class: 'composer-actions' }, planMode, h('span', { class: 'spacer' }), startPlan, stop, send), status);
  app.replaceChildren(header, history, transcript, composer);
  return { agent, model, tier, taint, taintText, usage, context, historyButton, history, historyList, historySearch, transcript, input, send, stop, planMode, startPlan, status };
}

export function fillAgents(select: HTMLSelectElement, agents: readonly AgentInfo[], current: string | null): void {
  select.replaceChildren(...agents.map((a) => h('option', { value: a.name, selected: a.name === current }, a.model ? `${a.name} · ${a.model}` : a.name)));
  if (current && !agents.some((a) => a.name === current)) select.append(h('option', { value: current, selected: true }, current));
}

export function fillModels(select: HTMLSelectElement, models: readonly ModelChoice[], current: string | null): void {
  const groups: Record<ModelChoice['group'], string> = { default: 'Default', configured: 'Configured models', vscode: 'VS Code language models' };
  const out: HTMLElement[] = [];
  for (const group of ['default', 'configured', 'vscode'] as const) {
    const options = models.filter((m) => m.group === group).map((m) => h('option', { value: m.id ?? '', selected: (m.id ?? null) === current }, m.label));
    if (!options.length) continue;
    out.push(group === 'default' ? options[0]! : h('optgroup', { label: groups[group] }, ...options));
  }
  if (current && !models.some((m) => m.id === current)) out.push(h('option', { value: current, selected: true }, current));
  select.replaceChildren(...out);
}

export function showState(layout: Layout, state: PanelState): void {
  layout.agent.value = state.agent ?? '';
  layout.model.value = state.model ?? '';
  layout.tier.hidden = !state.tier;
  layout.tier.textContent = state.tier ? `${state.project ?? 'project'}: ${state.tier.replace('_', ' ')}` : '';
  layout.tier.title = state.tier ? `The project ${state.project ?? ''} is at the ${state.tier} usage tier (spend against its cap)` : '';
  layout.tier.dataset.tier = state.tier ?? '';
  const outside = state.outsideContent ?? [];
  layout.taint.hidden = outside.length === 0;
  layout.taint.title = outside.length ? `This conversation took in outside content (${outside.join(', ')}): calls the agent pre-approved ask first until you trust it again.` : '';
  const u = state.sessionUsage;
  layout.usage.hidden = !u;
  layout.usage.textContent = u ? `${(u.inputTokens + u.outputTokens).toLocaleString('en-US')} tokens${u.costUsd > 0 ? ` · $${u.costUsd < 0.01 ? u.costUsd.toFixed(4) : u.costUsd.toFixed(2)}` : ''}` : '';
  layout.usage.title = u ? `This session: ${u.inputTokens} tokens in, ${u.outputTokens} out, ${u.calls} model calls${u.costUsd > 0 ? `, $${u.costUsd.toFixed(4)}` : ''} (this agent's own calls; a consulted agent's are in each turn's line)` : '';
  showFigures(layout, state);
  layout.send.hidden = state.busy;
  layout.stop.hidden = !state.busy;
  layout.agent.disabled = state.busy;
  const plan = state.planMode === true;
  layout.planMode.setAttribute('aria-pressed', String(plan));
  layout.planMode.lastChild!.textContent = plan ? ' Plan mode on' : ' Plan';
  document.body.dataset.plan = String(plan);
  layout.startPlan.hidden = state.busy || state.canStartPlan !== true;
  document.body.dataset.busy = String(state.busy);
  layout.input.placeholder = state.agent ? `Message ${state.agent}… (Enter to send, Shift+Enter for a new line, / for commands and prompts)` : 'No agent yet';
}

const kTokens = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toLocaleString('en-US'));
const dollars = (n: number) => (n > 0 && n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`);

/** The context meter, the conversation's budget and the project's spend against its cap. */
function showFigures(layout: Layout, state: PanelState): void {
  const c = state.context;
  layout.context.hidden = !c;
  if (!c) return;
  const pct = Math.round((c.usedTokens / c.windowTokens) * 100);
  const extra = [state.budget ? `budget ${dollars(state.budget.spentUsd)} of ${dollars(state.budget.limitUsd)}` : null, state.projectSpend && state.project ? `${state.project} ${dollars(state.projectSpend.spendUsd)}${state.projectSpend.capUsd !== null ? ` of ${dollars(state.projectSpend.capUsd)}` : ''}` : null].filter(Boolean);
  layout.context.textContent = `${kTokens(c.usedTokens)} / ${kTokens(c.windowTokens)} (${pct}%)${c.compacted ? ' · compacted' : ''}${extra.length ? ` · ${extra.join(' · ')}` : ''}`;
  layout.context.dataset.level = c.usedTokens >= c.compactAtTokens ? 'full' : c.usedTokens >= c.compactAtTokens * 0.8 ? 'near' : 'ok';
  layout.context.title = `Context: ${c.usedTokens} tokens of the model's ${c.windowTokens}. ${c.compacted ? 'This conversation was compacted (older turns condensed into a summary).' : `Older turns are condensed when the prompt passes ${c.compactAtTokens} tokens (60 %).`}${extra.length ? ` ${extra.join('; ')}.` : ''}`;
}
