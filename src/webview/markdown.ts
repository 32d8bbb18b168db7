/// <reference lib="dom" />
import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { h, icon } from './dom.js';

/**
 * Model output is untrusted (issue 7). Two layers: raw HTML in the markdown is escaped (it shows
 * as text, nothing of it is parsed), and the HTML marked produces is sanitised by DOMPurify with
 * a short allow-list: no script, no event handler, no style, links only to http(s)/mailto, images
 * only as data: URIs (the CSP blocks remote ones anyway). The CSP is the third layer.
 */
const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node instanceof HTMLAnchorElement) {
    const href = node.getAttribute('href') ?? '';
    if (/^(https?:|mailto:)/i.test(href)) {
      node.setAttribute('title', href);
      node.setAttribute('rel', 'noopener noreferrer');
    } else {
      node.removeAttribute('href'); // inert: shows the link text only
      node.setAttribute('title', 'link removed (only http, https and mailto links are kept)');
    }
  }
  if (node instanceof HTMLImageElement) {
    const src = node.getAttribute('src') ?? '';
    if (!/^data:image\/(png|gif|jpeg|webp);/i.test(src)) node.replaceWith(document.createTextNode(`[image: ${node.getAttribute('alt') || src}]`));
  }
});

const PURIFY_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'object', 'embed', 'svg', 'math', 'link', 'meta', 'base'],
  FORBID_ATTR: ['style', 'class', 'id', 'name', 'srcset', 'action', 'formaction'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

/** Markdown → sanitised nodes, with a copy button on every code block. */
export function renderMarkdown(text: string): DocumentFragment {
  const html = marked.parse(text) as string;
  const fragment = purify.sanitize(html, { ...PURIFY_CONFIG, RETURN_DOM_FRAGMENT: true }) as DocumentFragment;
  for (const pre of Array.from(fragment.querySelectorAll('pre'))) decorateCode(pre);
  return fragment;
}

function decorateCode(pre: HTMLPreElement): void {
  const wrap = h('div', { class: 'code-block' });
  pre.replaceWith(wrap);
  const copy = h('button', { type: 'button', class: 'icon-button copy-code', title: 'Copy code', 'aria-label': 'Copy code', 'data-action': 'copy-code' }, icon('copy'));
  wrap.append(copy, pre);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The longest prefix of `text` (from `from`) that ends at a blank line outside a code fence: what
 * is before it will not change as more tokens arrive, so it is rendered once and kept.
 */
export function stableSplit(text: string, from: number): number {
  let inFence = false;
  let split = from;
  let i = from;
  while (i < text.length) {
    const nl = text.indexOf('\n', i);
    if (nl < 0) break;
    const line = text.slice(i, nl);
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === '' && i > from) split = nl + 1;
    i = nl + 1;
  }
  return split;
}
