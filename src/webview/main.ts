/// <reference lib="dom" />
import { parseHostMessage, parseViewState, type HostMessage, type PanelState, type SessionSummary, type ViewState, type WebviewMessage } from '../protocol/messages.js';
import { Frames } from './frames.js';
import { buildLayout, fillAgents, fillModels, showState } from './layout.js';
import { fillHistory, matchSessions } from './history-list.js';
import { Transcript } from './transcript.js';
import { AttachContext } from './attach-context.js';
import { SlashCompletion } from './slash-commands.js';
import { ImageAttach } from './image-attach.js';
import { EmptyState } from './empty-state.js';

/**
 * The chat webview (issue 7): talks to the host only through the protocol in src/protocol
 * (validated here on receipt), keeps its view state with getState/setState, and renders the
 * conversation incrementally (transcript.ts).
 */
interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: ViewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app')!;
const layout = buildLayout(app);
const frames = new Frames();
const transcript = new Transcript(layout.transcript, frames);
const empty = new EmptyState(layout.transcript);
let view: ViewState = parseViewState(vscode.getState()) ?? { agent: null, sessionId: null, model: null, draft: '' };
let state: PanelState | null = null;
let sessions: SessionSummary[] = [];
/** The query the shown list answers ('' for the whole list). */
let sessionsQuery = '';
const searchText = () => layout.historySearch.value.trim();
const showHistory = () => {
  const query = searchText();
  // The host's answer for this query searched the messages too; until it comes, narrow by title.
  const shown = query === sessionsQuery ? sessions : matchSessions(sessions, query);
  fillHistory(layout.historyList, shown, { agent: state?.agent ?? null, sessionId: state?.sessionId ?? null }, query !== '');
};
let searchTimer: ReturnType<typeof setTimeout> | undefined;
layout.historySearch.addEventListener('input', () => {
  showHistory();
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => request({ type: 'list_sessions', ...(searchText() ? { query: searchText() } : {}) }), 200);
});

layout.input.value = view.draft ?? '';
const post = (m: WebviewMessage) => vscode.postMessage(m);
/** The latest request of each paired kind: a reply naming an older one is stale and dropped. */
const latest = new Map<'list_sessions' | 'copy', string>();
let requests = 0;
const request = (m: Extract<WebviewMessage, { type: 'list_sessions' | 'copy' }>) => {
  const requestId = `r${++requests}`;
  latest.set(m.type, requestId);
  post({ ...m, requestId });
};
const stale = (kind: 'list_sessions' | 'copy', requestId: string | undefined) => requestId !== undefined && latest.get(kind) !== requestId;
// Before the composer's Enter handler: an open @ completion takes Enter first.
const attach = new AttachContext(layout.input, layout.input.parentElement!, post);
const slash = new SlashCompletion(layout.input, layout.input.parentElement!);
const images = new ImageAttach(layout.input, layout.input.parentElement!);
const save = (patch: Partial<ViewState>) => {
  view = { ...view, ...patch };
  vscode.setState(view);
};

/** The message input takes the keyboard unless the person is in another control of the page. */
function focusInput(): void {
  const active = document.activeElement;
  if (active && active !== document.body && active !== layout.input && !(active instanceof HTMLElement && active.closest('details.card'))) return;
  layout.input.focus();
}
// Coming back to the panel (from a dialog, a diff, the terminal): the input has the keyboard again.
window.addEventListener('focus', () => focusInput());

function onHostMessage(msg: HostMessage): void {
  switch (msg.type) {
    case 'init':
      fillAgents(layout.agent, msg.agents, msg.state.agent);
      fillModels(layout.model, msg.models, msg.state.model);
      transcript.clear();
      transcript.add(msg.items);
      apply(msg.state);
      app.setAttribute('aria-busy', 'false');
      focusInput();
      return;
    case 'reset':
      transcript.clear();
      transcript.add(msg.items);
      apply(msg.state);
      return;
    case 'items':
      return transcript.add(msg.items);
    case 'state':
      return apply(msg.state);
    case 'agents':
      fillAgents(layout.agent, msg.agents, state?.agent ?? null);
      fillModels(layout.model, msg.models, state?.model ?? null);
      return;
    case 'sessions': {
      if (stale('list_sessions', msg.requestId)) return;
      const query = (msg.query ?? '').trim();
      if (query !== searchText()) {
        // An answer for another search (or the whole list after a rename): ask for this one.
        if (searchText() && query === '') request({ type: 'list_sessions', query: searchText() });
        if (query !== '') return;
      }
      sessions = msg.sessions;
      sessionsQuery = query;
      return showHistory();
    }
    case 'commands':
      return slash.set(msg.commands);
    case 'copied':
      if (stale('copy', msg.requestId)) return;
      layout.status.textContent = 'Copied to the clipboard';
      setTimeout(() => (layout.status.textContent = ''), 1500);
      return;
    case 'focus_input':
      return focusInput();
  }
}

function apply(next: PanelState): void {
  state = next;
  showState(layout, next);
  empty.show(next);
  attach.show(next.attachments);
  save({ panelId: next.panelId, agent: next.agent, sessionId: next.sessionId, model: next.model });
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = parseHostMessage(event.data);
  if (!parsed.ok) {
    console.error(`pepe chat: ignored an invalid message from the host (${parsed.error})`);
    return;
  }
  onHostMessage(parsed.value);
});

// ---- controls ----

function sendInput(): void {
  const text = layout.input.value.trim();
  if (!text || state?.busy) return;
  const attachments = attach.ids;
  const pictures = images.payload;
  post({ type: 'send', text, ...(attachments.length ? { attachments } : {}), ...(pictures.length ? { images: pictures } : {}) });
  images.clear();
  layout.input.value = '';
  save({ draft: '' });
  // The person's own message: the conversation follows again, whatever they had scrolled to.
  transcript.follow.jump();
}

layout.input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    sendInput();
  }
});
let draftTimer: ReturnType<typeof setTimeout> | undefined;
layout.input.addEventListener('input', () => {
  clearTimeout(draftTimer);
  draftTimer = setTimeout(() => save({ draft: layout.input.value }), 300);
});
layout.agent.addEventListener('change', () => {
  if (layout.agent.value && layout.agent.value !== state?.agent) post({ type: 'set_agent', agent: layout.agent.value });
});
layout.model.addEventListener('change', () => post({ type: 'set_model', model: layout.model.value || null }));

function toggleHistory(open = layout.history.hidden): void {
  layout.history.hidden = !open;
  layout.historyButton.setAttribute('aria-expanded', String(open));
  if (open) {
    request({ type: 'list_sessions', ...(searchText() ? { query: searchText() } : {}) });
    layout.historySearch.focus();
  }
}

document.addEventListener('click', (e) => {
  const target = (e.target as Element | null)?.closest<HTMLElement>('[data-action]');
  if (!target) return;
  const session = () => ({ agent: target.dataset.agent ?? '', sessionId: target.dataset.session ?? '' });
  switch (target.dataset.action) {
    case 'send':
      return sendInput();
    case 'send-example':
      if (target.dataset.text && !state?.busy) {
        post({ type: 'send', text: target.dataset.text });
        transcript.follow.jump();
      }
      return;
    case 'stop':
      return post({ type: 'stop' });
    case 'trust-session':
      return post({ type: 'trust_session' });
    case 'toggle-plan':
      return post({ type: 'set_plan_mode', plan: state?.planMode !== true });
    case 'start-plan':
      if (!state?.busy) post({ type: 'start_plan' });
      return;
    case 'new-session':
      return post({ type: 'new_session' });
    case 'toggle-history':
      return toggleHistory();
    case 'open-session':
      toggleHistory(false);
      return post({ type: 'open_session', ...session() });
    case 'rename-session':
      return post({ type: 'rename_session', ...session() });
    case 'delete-session':
      return post({ type: 'delete_session', ...session() });
    case 'export-session':
      return post({ type: 'export_session', ...session() });
    case 'retry': {
      const text = transcript.retryTexts.get(target);
      if (text && !state?.busy) post({ type: 'send', text });
      return;
    }
    case 'set-api-key':
      if (target.dataset.key) post({ type: 'set_api_key', name: target.dataset.key });
      return;
    case 'edit-model':
      if (target.dataset.model) post({ type: 'edit_model', model: target.dataset.model });
      return;
    case 'edit-budget':
      if (target.dataset.agent) post({ type: 'edit_budget', agent: target.dataset.agent });
      return;
    case 'open-file':
      if (target.dataset.path) post({ type: 'open_file', path: target.dataset.path });
      return;
    case 'show-change':
      if (target.dataset.path && target.dataset.session && target.dataset.turn) post({ type: 'show_change', path: target.dataset.path, sessionId: target.dataset.session, turnId: target.dataset.turn });
      return;
    case 'restore-turn':
    case 'compare-turn':
      if (target.dataset.session && target.dataset.turn) post({ type: 'checkpoint', action: target.dataset.action === 'restore-turn' ? 'restore' : 'compare', sessionId: target.dataset.session, turnId: target.dataset.turn });
      return;
    case 'copy-code': {
      const code = target.parentElement?.querySelector('pre')?.textContent ?? '';
      return request({ type: 'copy', text: code });
    }
  }
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !layout.history.hidden) toggleHistory(false);
});

// The handshake: the host sends nothing before this, and answers with `init`.
post({ type: 'ready', state: view });
