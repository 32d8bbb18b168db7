import { describeImage } from '../images.js';
import type { Message } from '../messages.js';
import type { LoadedSession, SessionInfo } from './session-store.js';

/**
 * Finding a conversation again (issue 25): search over sessions, and a session as Markdown.
 * The export is the transcript as the model saw it; tool calls and results go in code fences
 * longer than any run of backticks inside them, so nothing in them turns into Markdown.
 */

/** Every word of `query` (case-insensitive) is in the title, the agent, the id or a message. */
export function sessionMatches(session: Pick<LoadedSession, 'info' | 'messages'>, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const { info } = session;
  const hay = [info.title ?? '', info.agent, info.id, ...session.messages.map((m) => m.content)].join('\n').toLowerCase();
  return words.every((w) => hay.includes(w));
}

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

function section(agent: string, m: Message): string | null {
  // An agent core's raw answer is kept only as a record; the person got the delivered one.
  if ((m as Record<string, unknown>).runtime_record === true) return null;
  switch (m.role) {
    case 'system':
      return null;
    case 'user':
      // Pictures are named, not embedded: a name cannot inject Markdown, the bytes would swamp the file.
      return [`## You`, ...(m.content ? [m.content] : []), ...(m.images ?? []).map((i) => `*[image: ${describeImage(i).replace(/[\\`*_[\]<>]/g, '\\$&')}]*`)].join('\n\n');
    case 'assistant': {
      const calls = (m.tool_calls ?? []).map((c) => `**Tool call** \`${c.name}\`\n\n${fence(JSON.stringify(c.arguments, null, 2), 'json')}`);
      return [`## ${agent}`, ...(m.content ? [m.content] : []), ...calls].join('\n\n');
    }
    case 'tool':
      return `**Result of** \`${m.name}\`${m.is_error ? ' (error)' : ''}\n\n${fence(m.content)}`;
  }
}

export function sessionMarkdown(info: SessionInfo, messages: readonly Message[]): string {
  const head = [`# ${info.title ?? `Session ${info.id}`}`, '', `Agent: ${info.agent} · Session: ${info.id} · Started: ${info.createdAt} · Last message: ${info.updatedAt}`];
  const body = messages.map((m) => section(info.agent, m)).filter((s): s is string => s !== null);
  return [...head, '', ...body.flatMap((s) => [s, ''])].join('\n');
}
