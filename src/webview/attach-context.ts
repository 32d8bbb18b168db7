/// <reference lib="dom" />
import type { AttachmentChip, AttachmentKind, WebviewMessage } from '../protocol/messages.js';
import { h, icon } from './dom.js';

/**
 * Context for the next message (issue 17): `@file`, `@folder`, `@problems`, `@selection`,
 * `@terminal` completions in the input, chips for what is attached, and files dropped on the
 * chat. The webview only asks: the host gathers the content and answers with chips (in the
 * panel's state), so nothing the page holds is ever sent to the model unchecked.
 */

export const COMPLETIONS: readonly { kind: AttachmentKind; text: string; detail: string; icon: string }[] = [
  { kind: 'file', text: '@file', detail: "a workspace file's content", icon: 'file' },
  { kind: 'folder', text: '@folder', detail: "a folder's entries", icon: 'folder' },
  { kind: 'problems', text: '@problems', detail: 'errors and warnings from the Problems panel', icon: 'warning' },
  { kind: 'selection', text: '@selection', detail: "the editor's selected text", icon: 'selection' },
  { kind: 'terminal', text: '@terminal', detail: "the terminal's selected output", icon: 'terminal' },
];

/** The `@word` being typed right before the caret, if any (at the start or after a space). */
export function mentionAt(text: string, caret: number): { start: number; word: string } | null {
  const m = /(^|\s)@([a-z]*)$/i.exec(text.slice(0, caret));
  return m ? { start: caret - m[2]!.length - 1, word: m[2]!.toLowerCase() } : null;
}

export function matchingCompletions(word: string): typeof COMPLETIONS {
  return COMPLETIONS.filter((c) => c.kind.startsWith(word));
}

/**
 * The URIs of a drop: `text/uri-list` (what VS Code gives a webview when Shift is held while
 * dropping, from the Explorer, an editor tab or the desktop) and VS Code's own
 * `application/vnd.code.uri-list`. Comment lines are skipped; at most 20.
 */
export function droppedUris(data: Pick<DataTransfer, 'getData'>): string[] {
  const raw = [data.getData('application/vnd.code.uri-list'), data.getData('text/uri-list')].join('\n');
  const seen = new Set<string>();
  for (const line of raw.split(/\r?\n/)) {
    const uri = line.trim();
    if (uri && !uri.startsWith('#')) seen.add(uri);
  }
  return [...seen].slice(0, 20);
}

export class AttachContext {
  private readonly menu: HTMLElement;
  private readonly chipsEl: HTMLElement;
  private shown: typeof COMPLETIONS = [];
  private active = 0;
  private chips: AttachmentChip[] = [];

  constructor(private readonly input: HTMLTextAreaElement, composer: HTMLElement, private readonly post: (m: WebviewMessage) => void) {
    this.chipsEl = h('ul', { class: 'attachments', 'aria-label': 'Attached context', hidden: true });
    this.menu = h('ul', { id: 'mentions', class: 'mentions', role: 'listbox', 'aria-label': 'Attach context', hidden: true });
    composer.prepend(this.chipsEl, this.menu);
    input.setAttribute('aria-controls', 'mentions');
    input.setAttribute('aria-autocomplete', 'list');
    // Registered before the composer's own keydown (Enter sends): a pick takes Enter first.
    input.addEventListener('keydown', (e) => this.onKey(e));
    input.addEventListener('input', () => this.update());
    input.addEventListener('blur', () => setTimeout(() => this.close(), 150));
    this.menu.addEventListener('mousedown', (e) => {
      const row = (e.target as Element).closest<HTMLElement>('[data-kind]');
      if (!row) return;
      e.preventDefault();
      this.pick(COMPLETIONS.find((c) => c.kind === row.dataset.kind)!);
    });
    this.chipsEl.addEventListener('click', (e) => {
      const button = (e.target as Element).closest<HTMLElement>('[data-detach]');
      if (button?.dataset.detach) this.post({ type: 'detach', id: button.dataset.detach });
    });
    this.listenForDrops(document.body);
  }

  /** The ids to send with the message (the chips the person sees). */
  get ids(): string[] {
    return this.chips.map((c) => c.id);
  }

  /** The host's chips (from the panel's state). */
  show(chips: readonly AttachmentChip[] | undefined): void {
    this.chips = [...(chips ?? [])];
    this.chipsEl.hidden = !this.chips.length;
    this.chipsEl.replaceChildren(
      ...this.chips.map((c) =>
        h(
          'li',
          { class: 'chip', 'data-kind': c.kind, title: `${c.kind}: ${c.label}` },
          icon(COMPLETIONS.find((x) => x.kind === c.kind)?.icon ?? 'file'),
          h('span', { class: 'chip-label' }, c.label),
          h('button', { type: 'button', class: 'icon-button chip-remove', 'data-detach': c.id, 'aria-label': `Remove ${c.label}`, title: 'Remove' }, icon('close')),
        ),
      ),
    );
  }

  private update(): void {
    const m = mentionAt(this.input.value, this.input.selectionStart ?? this.input.value.length);
    this.shown = m ? matchingCompletions(m.word) : [];
    if (!this.shown.length) return this.close();
    this.active = Math.min(this.active, this.shown.length - 1);
    this.render();
  }

  private render(): void {
    this.menu.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    this.menu.replaceChildren(
      ...this.shown.map((c, i) =>
        h(
          'li',
          { id: `mention-${c.kind}`, class: `mention${i === this.active ? ' active' : ''}`, role: 'option', 'aria-selected': String(i === this.active), 'data-kind': c.kind },
          icon(c.icon),
          h('span', { class: 'mention-text' }, c.text),
          h('span', { class: 'mention-detail' }, c.detail),
        ),
      ),
    );
    this.input.setAttribute('aria-activedescendant', `mention-${this.shown[this.active]!.kind}`);
  }

  private close(): void {
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

  /** Removes the typed `@word` and asks the host for that context. */
  private pick(c: (typeof COMPLETIONS)[number]): void {
    const caret = this.input.selectionStart ?? this.input.value.length;
    const m = mentionAt(this.input.value, caret);
    if (m) {
      this.input.value = this.input.value.slice(0, m.start) + this.input.value.slice(caret);
      this.input.setSelectionRange(m.start, m.start);
    }
    this.close();
    this.post({ type: 'attach', kind: c.kind });
  }

  private listenForDrops(target: HTMLElement): void {
    target.addEventListener('dragover', (e) => {
      if (!e.dataTransfer) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      document.body.classList.add('dropping');
    });
    target.addEventListener('dragleave', (e) => {
      if (e.target === target || !e.relatedTarget) document.body.classList.remove('dropping');
    });
    target.addEventListener('drop', (e) => {
      document.body.classList.remove('dropping');
      if (!e.dataTransfer) return;
      e.preventDefault();
      const uris = droppedUris(e.dataTransfer);
      if (uris.length) this.post({ type: 'attach', kind: 'file', uris });
    });
  }
}
