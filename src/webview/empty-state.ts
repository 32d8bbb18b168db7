/// <reference lib="dom" />
import type { PanelState } from '../protocol/messages.js';
import { h, icon } from './dom.js';

/**
 * The empty chat (issue 26): who answers and what it can do (its tools, the agents it consults,
 * its MCP servers, in one line), three example prompts (clicking one sends it) and the hints for
 * `@`, `/` and plan mode. Shown while the conversation has nothing in it; the transcript takes its
 * place with the first item.
 */
export class EmptyState {
  readonly el: HTMLElement;
  private intro: { agent: string; summary: string; examples: string[] } | null = null;

  constructor(private readonly transcript: HTMLElement) {
    this.el = h('section', { class: 'empty-state', 'data-kind': 'empty-state', 'aria-label': 'Getting started', hidden: true });
    transcript.before(this.el);
    new MutationObserver(() => this.sync()).observe(transcript, { childList: true });
  }

  show(state: PanelState): void {
    const next = state.agent && state.intro ? { agent: state.agent, summary: state.intro.summary, examples: state.intro.examples } : null;
    if (JSON.stringify(next) !== JSON.stringify(this.intro)) {
      this.intro = next;
      this.render();
    }
    this.sync();
  }

  private sync(): void {
    const empty = this.intro !== null && this.transcript.childElementCount === 0;
    this.el.hidden = !empty;
    this.transcript.hidden = empty;
  }

  private render(): void {
    const i = this.intro;
    if (!i) return void this.el.replaceChildren();
    this.el.replaceChildren(
      h('h2', { class: 'empty-title' }, icon('hubot'), ` ${i.agent} is ready`),
      h('p', { class: 'empty-can', 'data-kind': 'agent-can' }, i.summary),
      h('div', { class: 'label' }, 'Try'),
      h(
        'ul',
        { class: 'empty-examples', 'aria-label': 'Example prompts' },
        ...i.examples.map((text) => h('li', {}, h('button', { type: 'button', class: 'example', 'data-action': 'send-example', 'data-text': text, title: 'Send this message' }, icon('comment'), ` ${text}`))),
      ),
      h(
        'ul',
        { class: 'empty-hints', 'aria-label': 'Hints' },
        h('li', {}, h('kbd', {}, '@'), ' attaches a file, folder, selection, problems or terminal output'),
        h('li', {}, h('kbd', {}, '/'), ' lists the commands and your prompt files'),
        h('li', {}, icon('checklist'), ' Plan: the agent only reads and answers with a plan; Start carries it out'),
      ),
    );
  }
}
