/// <reference lib="dom" />
import { classifyFailure, FAILURE_FIX_LABELS, type FailureFix } from '../protocol/model-failure.js';
import { h, icon } from './dom.js';

const FIX_ICONS: Record<FailureFix, string> = { set_api_key: 'key', edit_model: 'edit', retry: 'refresh', edit_budget: 'settings-gear' };

/**
 * A failed turn (issue 26): a known failure is one line plus the buttons that fix it (the core's
 * table, protocol/model-failure.ts), its raw text folded away under "Details"; anything else is the
 * raw text with Retry. `retry` registers the Retry button with the text it sends again.
 */
export function failureNotice(text: string, opts: { retryText?: string; agent?: string; kind?: string; retry(button: HTMLElement, text: string): void }): HTMLElement {
  const known = classifyFailure(text);
  const el = h('div', { class: 'notice error failure', role: 'alert', 'data-kind': opts.kind, 'data-failure': known?.kind }, icon('error'));
  if (!known) {
    el.append(h('span', { class: 'notice-text' }, text));
    if (opts.retryText !== undefined) el.append(fixButton('retry', opts, {}));
    return el;
  }
  const body = h('div', { class: 'failure-body' }, h('span', { class: 'notice-text failure-line' }, known.line));
  const buttons = h('div', { class: 'failure-fixes' });
  for (const fix of known.fixes) {
    if (fix === 'retry' && opts.retryText === undefined) continue;
    if (fix === 'set_api_key' && !known.keyEnv) continue;
    if (fix === 'edit_model' && !known.model) continue;
    if (fix === 'edit_budget' && !opts.agent) continue;
    buttons.append(fixButton(fix, opts, { keyEnv: known.keyEnv, model: known.model }));
  }
  body.append(buttons, h('details', { class: 'failure-detail' }, h('summary', {}, 'Details'), h('pre', { class: 'failure-raw' }, text)));
  el.append(body);
  return el;
}

function fixButton(fix: FailureFix, opts: { retryText?: string; agent?: string; retry(button: HTMLElement, text: string): void }, facts: { keyEnv?: string; model?: string }): HTMLElement {
  const label = FAILURE_FIX_LABELS[fix];
  const data: Record<string, string | undefined> =
    fix === 'set_api_key' ? { 'data-action': 'set-api-key', 'data-key': facts.keyEnv, 'aria-label': `Set the API key ${facts.keyEnv}` }
    : fix === 'edit_model' ? { 'data-action': 'edit-model', 'data-model': facts.model, 'aria-label': `Edit the model ${facts.model}` }
    : fix === 'edit_budget' ? { 'data-action': 'edit-budget', 'data-agent': opts.agent, 'aria-label': `Edit the budget of ${opts.agent}` }
    : { 'data-action': 'retry', 'aria-label': 'Retry: send the message again' };
  const button = h('button', { type: 'button', class: fix === 'retry' ? 'text-button' : 'text-button fix', 'data-fix': fix, ...data }, icon(FIX_ICONS[fix]), ` ${label}`);
  if (fix === 'retry' && opts.retryText !== undefined) opts.retry(button, opts.retryText);
  return button;
}
