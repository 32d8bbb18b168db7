/**
 * Known failures of a turn, classified from the one line the core says about them, so every
 * surface shows the same short sentence and offers the same fix (issue 26). The line is the
 * core's own (runtime/model-call.ts, models/sdk-errors.ts, runtime/budget.ts); what a model or a
 * server put into it is only ever shown as the folded raw detail, never used as a name, except a
 * key or model name that matches the strict patterns below.
 *
 * Pure: no Node imports, so the chat webview renders with the same table.
 */

export type FailureKind = 'refused_key' | 'missing_key' | 'unreachable' | 'unknown_model' | 'rate_limit' | 'budget';

/** What a failure's button does: store a key, change the model's entry, send the message again, or edit the agent's limits. */
export type FailureFix = 'set_api_key' | 'edit_model' | 'retry' | 'edit_budget';

export interface ClassifiedFailure {
  kind: FailureKind;
  /** One line a person reads at a glance. */
  line: string;
  /** The buttons, most helpful first. */
  fixes: FailureFix[];
  /** The key variable that is missing or was refused (set_api_key). */
  keyEnv?: string;
  /** The model entry of config.json involved (edit_model). */
  model?: string;
}

/** The labels of the fix buttons, the same on every surface. */
export const FAILURE_FIX_LABELS: Record<FailureFix, string> = {
  set_api_key: 'Set API Key…',
  edit_model: 'Edit Model…',
  retry: 'Retry',
  edit_budget: 'Edit Budget…',
};

const NAME = '[A-Za-z_][A-Za-z0-9_]{0,127}';
const MODEL_ID = '[A-Za-z0-9_][A-Za-z0-9_.:/@-]{0,127}';

interface Row {
  kind: FailureKind;
  test: RegExp;
  fixes: FailureFix[];
  line(f: { model?: string; keyEnv?: string; host?: string }): string;
}

const of = (model?: string) => (model ? ` (model ${model})` : '');

/** First match wins; the order puts the more specific texts first. */
const TABLE: readonly Row[] = [
  {
    kind: 'budget',
    test: /stopped before a model call|could have gone over a budget|has reached its spend cap/,
    fixes: ['edit_budget'],
    line: () => 'Stopped: the next model call could go over a budget.',
  },
  {
    kind: 'missing_key',
    test: new RegExp(`no API key stored for ${NAME}`),
    fixes: ['set_api_key', 'retry'],
    line: (f) => `No API key is stored for ${f.keyEnv ?? 'this model'}${of(f.model)}.`,
  },
  {
    kind: 'refused_key',
    test: /HTTP 40[13]\b/,
    fixes: ['set_api_key', 'edit_model', 'retry'],
    line: (f) => (f.keyEnv ? `The server refused the API key in ${f.keyEnv}${of(f.model)}.` : `The server refused the request: it wants an API key${of(f.model)}.`),
  },
  {
    kind: 'unknown_model',
    test: /HTTP 404\b/,
    fixes: ['edit_model', 'retry'],
    line: (f) => `The server does not know this model${of(f.model)}: check its name and base URL.`,
  },
  {
    kind: 'rate_limit',
    test: /HTTP 429\b|error in stream \(rate_limit/,
    fixes: ['retry'],
    line: (f) => `The server is rate-limiting requests${of(f.model)}: wait a moment, then retry.`,
  },
  {
    kind: 'unreachable',
    test: /cannot connect to |connection failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN/,
    fixes: ['edit_model', 'retry'],
    line: (f) => `Cannot reach the model's server${f.host ? ` at ${f.host}` : ''}${of(f.model)}: is it running?`,
  },
];

const CHAIN_PREFIX = /^(?:every model in the chain failed|stopped before a model call): /;

/** The known failure `text` describes, or null (then the raw text is shown as it is, with Retry). */
export function classifyFailure(text: string): ClassifiedFailure | null {
  // A budget stop names every model it did not call: the stop itself is the failure.
  const budget = TABLE[0]!;
  if (budget.test.test(text)) return { kind: budget.kind, line: budget.line({}), fixes: [...budget.fixes] };
  const body = text.replace(CHAIN_PREFIX, '');
  // A chain says one failure per model; the first model's is the one to fix first.
  for (const part of body.split('; ')) {
    const row = TABLE.find((r) => r.test.test(part));
    if (!row) continue;
    const facts = factsOf(part);
    return { kind: row.kind, line: row.line(facts), fixes: [...row.fixes], ...(facts.keyEnv ? { keyEnv: facts.keyEnv } : {}), ...(facts.model ? { model: facts.model } : {}) };
  }
  return null;
}

function factsOf(part: string): { model?: string; keyEnv?: string; host?: string } {
  const model = new RegExp(`model "(${MODEL_ID})"`).exec(part)?.[1] ?? new RegExp(`^(${MODEL_ID}): `).exec(part)?.[1];
  const keyEnv = new RegExp(`(?:the key in|no API key stored for) (${NAME})`).exec(part)?.[1];
  const host = /cannot connect to ([A-Za-z0-9.[\]:-]{1,255})/.exec(part)?.[1];
  return { ...(model ? { model } : {}), ...(keyEnv ? { keyEnv } : {}), ...(host ? { host } : {}) };
}
