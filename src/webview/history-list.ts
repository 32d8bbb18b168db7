/// <reference lib="dom" />
import type { SessionSummary } from '../protocol/messages.js';
import { h, icon } from './dom.js';

/**
 * The chat's history list (issue 25): conversations grouped by agent and by day (today,
 * yesterday, the last seven days, older), each with open, rename, export and delete. The search
 * itself is the host's (it reads the messages too); while its answer is on the way, the list is
 * narrowed here by title, agent and id.
 */

/** Sessions whose title, agent or id contains every word of `query` (case-insensitive). */
export function matchSessions(sessions: readonly SessionSummary[], query: string): SessionSummary[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [...sessions];
  return sessions.filter((s) => {
    const hay = `${s.title ?? ''} ${s.agent} ${s.id}${s.origin === 'heartbeat' ? ' heartbeat' : ''}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

const DAY = 24 * 60 * 60 * 1000;

/** Today, Yesterday, Previous 7 days, Older: by the last message, in the page's time zone. */
export function dayBucket(updatedAt: string, now: Date = new Date()): string {
  const t = new Date(updatedAt);
  if (Number.isNaN(t.getTime())) return 'Older';
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  if (t.getTime() >= midnight) return 'Today';
  if (t.getTime() >= midnight - DAY) return 'Yesterday';
  if (t.getTime() >= midnight - 7 * DAY) return 'Previous 7 days';
  return 'Older';
}

export interface HistoryGroup {
  agent: string;
  day: string;
  sessions: SessionSummary[];
}

/** Groups in order of their newest session: one per agent and day bucket. */
export function groupSessions(sessions: readonly SessionSummary[], now: Date = new Date()): HistoryGroup[] {
  const sorted = [...sessions].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const groups = new Map<string, HistoryGroup>();
  for (const s of sorted) {
    const day = dayBucket(s.updatedAt, now);
    const key = `${s.agent}\0${day}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { agent: s.agent, day, sessions: [] }));
    g.sessions.push(s);
  }
  return [...groups.values()];
}

export function fillHistory(list: HTMLElement, all: readonly SessionSummary[], current: { agent: string | null; sessionId: string | null }, searched: boolean): void {
  if (!all.length) {
    list.replaceChildren(h('li', { class: 'empty' }, searched ? 'No session matches.' : 'No sessions yet.'));
    return;
  }
  list.replaceChildren(
    ...groupSessions(all).flatMap((g) => [
      h('li', { class: 'history-group', role: 'presentation', 'data-agent': g.agent }, h('span', { class: 'history-group-agent' }, g.agent), ` · ${g.day}`),
      ...g.sessions.map((s) => {
        const label = `${s.origin === 'heartbeat' ? 'Heartbeat: ' : ''}${s.title ?? s.id}`;
        const when = s.updatedAt ? new Date(s.updatedAt).toLocaleString() : '';
        const data = { 'data-agent': s.agent, 'data-session': s.id };
        return h(
          'li',
          { class: `history-item${s.agent === current.agent && s.id === current.sessionId ? ' current' : ''}` },
          h('button', { type: 'button', class: 'history-open', 'data-action': 'open-session', ...data, 'aria-label': `Open ${label} with ${s.agent}` }, h('span', { class: 'history-title' }, label), h('span', { class: 'history-meta' }, `${s.agent} · ${s.messages} messages · ${when}`)),
          h('button', { type: 'button', class: 'icon-button', 'data-action': 'rename-session', ...data, title: 'Rename', 'aria-label': `Rename ${label}` }, icon('edit')),
          h('button', { type: 'button', class: 'icon-button', 'data-action': 'export-session', ...data, title: 'Export as Markdown', 'aria-label': `Export ${label} as Markdown` }, icon('export')),
          h('button', { type: 'button', class: 'icon-button', 'data-action': 'delete-session', ...data, title: 'Delete', 'aria-label': `Delete ${label}` }, icon('trash')),
        );
      }),
    ]),
  );
}
