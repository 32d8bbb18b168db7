import type { ChatItem } from '../../protocol/messages.js';

/**
 * Deterministic markdown for the rendering measurement: paragraphs, lists, inline code and fenced
 * code blocks, as a model writes them. A "token" is a word and its space (about 4–6 characters).
 */
const WORDS = ['the', 'agent', 'routes', 'billing', 'question', 'to', 'a', 'slot', 'with', '`memory_search`', 'and', '**bold**', 'result', 'of', 'turn', 'model', 'stream', 'tool', 'call', 'answer'];

export function syntheticAnswer(tokens: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (out.length < tokens) {
    const n = out.length;
    if (n % 400 === 399) {
      out.push('\n\n```ts\n', 'const total = items', '.reduce((a, b) => a + b, 0);\n', 'console.log(total);\n', '```\n\n');
    } else if (n % 120 === 119) {
      out.push('\n\n- first point ', 'about the slot\n', '- second point\n\n');
    } else if (n % 60 === 59) {
      out.push('.\n\n');
    } else {
      out.push(`${WORDS[i++ % WORDS.length]} `);
    }
  }
  return out.slice(0, tokens);
}

export function syntheticHistory(agent: string, messages: number): ChatItem[] {
  const path = [agent];
  const items: ChatItem[] = [];
  for (let i = 0; i < messages; i++) {
    if (i % 2 === 0) {
      items.push({ kind: 'user', text: `Question ${i / 2 + 1}: how does the ${WORDS[i % WORDS.length]} work?` });
    } else {
      const content = `Answer ${(i + 1) / 2}. ${syntheticAnswer(40).join('')}\n\n\`\`\`sh\npepe run ${agent} "hello"\n\`\`\``;
      items.push({ kind: 'event', event: { type: 'assistant_message', path, content, toolCalls: [], model: 'synthetic' } });
    }
  }
  return items;
}
