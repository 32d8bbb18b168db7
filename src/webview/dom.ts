/// <reference lib="dom" />

type Attrs = Record<string, string | boolean | undefined>;
type Child = Node | string | null | undefined | false;

/** A tiny element builder: attributes as strings (booleans toggle), children as nodes or text. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : value);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** A codicon (decorative: hidden from screen readers; the control carries the label). */
export function icon(name: string, extra = ''): HTMLElement {
  return h('span', { class: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, 'aria-hidden': 'true' });
}

/** An icon button with an accessible name and a tooltip. */
export function iconButton(name: string, label: string, action: string, attrs: Attrs = {}): HTMLButtonElement {
  return h('button', { type: 'button', class: 'icon-button', title: label, 'aria-label': label, 'data-action': action, ...attrs }, icon(name));
}
