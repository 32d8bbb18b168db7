/// <reference lib="dom" />
import type { SlashCommand } from '../protocol/messages.js';
import { h, icon } from './dom.js';

/**
 * Completion of `/` at the start of the input (issue 24): the chat's own commands and the prompt
 * files the host listed. Picking one puts `/name ` in the input; the host expands it when sent.
 */

/** The `/word` being typed, when the input is only that so far (a command is the message's start). */
export function slashAt(text: string, caret: number): string | null {
  const m = /^\/([A-Za-z0-9_.-]*)$/.exec(text.slice(0, caret));
  return m ? m[1]!.toLowerCase() : null;
}

export function matchingCommands(commands: readonly SlashCommand[], word: string): SlashCommand[] {
  return commands.filter((c) => c.name.toLowerCase().startsWith(word));
}

export class SlashCompletion {
  private readonly menu: HTMLElement;
  private commands: SlashCommand[] = [];
  private shown: SlashCommand[] = [];
  private active = 0;

  constructor(private readonly input: HTMLTextAreaElement, composer: HTMLElement) {
    this.menu = h('ul', { id: 'slash-commands', class: 'mentions', role: 'listbox', 'aria-label': 'Commands and prompts', hidden: true });
    composer.prepend(this.menu);
    // Registered before the composer's own keydown (Enter sends): a pick takes Enter first.
    input.addEventListener('keydown', (e) => this.onKey(e));
    input.addEventListener('input', () => this.update());
    input.addEventListener('blur', () => setTimeout(() => this.close(), 150));
    this.menu.addEventListener('mousedown', (e) => {
      const row = (e.target as Element).closest<HTMLElement>('[data-command]');
      if (!row) return;
      e.preventDefault();
      const picked = this.shown.find((c) => c.name === row.dataset.command);
      if (picked) this.pick(picked);
    });
  }

  /** The host's list (sent after init and after each turn). */
  set(commands: readonly SlashCommand[]): void {
    this.commands = [...commands];
  }

  private update(): void {
    const word = slashAt(this.input.value, this.input.selectionStart ?? this.input.value.length);
    this.shown = word === null ? [] : matchingCommands(this.commands, word);
    if (!this.shown.length) return this.close();
    this.active = Math.min(this.active, this.shown.length - 1);
    this.render();
  }

  private render(): void {
    this.menu.hidden = false;
    this.input.setAttribute('aria-controls', 'slash-commands');
    this.input.setAttribute('aria-expanded', 'true');
    this.menu.replaceChildren(
      ...this.shown.map((c, i) =>
        h(
          'li',
          { id: `slash-${i}`, class: `mention${i === this.active ? ' active' : ''}`, role: 'option', 'aria-selected': String(i === this.active), 'data-command': c.name, 'data-kind': c.kind },
          icon(c.kind === 'prompt' ? 'note' : 'terminal'),
          h('span', { class: 'mention-text' }, `/${c.name}`),
          h('span', { class: 'mention-detail' }, c.detail),
        ),
      ),
    );
    this.input.setAttribute('aria-activedescendant', `slash-${this.active}`);
  }

  private close(): void {
    if (this.menu.hidden) return;
    this.shown = [];
    this.menu.hidden = true;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  private onKey(e: KeyboardEvent): void {
    if (this.menu.hidden || !this.shown.length) return;
    const take = () => {
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      take();
      this.active = (this.active + (e.key === 'ArrowDown' ? 1 : this.shown.length - 1)) % this.shown.length;
      this.render();
    } else if ((e.key === 'Enter' && !e.shiftKey && !e.isComposing) || e.key === 'Tab') {
      take();
      this.pick(this.shown[this.active]!);
    } else if (e.key === 'Escape') {
      take();
      this.close();
    }
  }

  /** `/name ` in the input, caret after it, ready for the arguments. */
  private pick(c: SlashCommand): void {
    const rest = this.input.value.slice(this.input.selectionStart ?? this.input.value.length);
    this.input.value = `/${c.name} ${rest.trimStart()}`;
    const at = c.name.length + 2;
    this.input.setSelectionRange(at, at);
    this.close();
    this.input.dispatchEvent(new Event('input'));
  }
}
