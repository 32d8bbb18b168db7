import * as z from '../zod.js';
import { errorMessage } from '../errors.js';
import { ANTHROPIC_BASE_URL, OPENAI_BASE_URL } from './http-providers.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * The models a server says it has (the model setup form's list, spec 4.2): OpenAI and
 * OpenAI-compatible servers answer `GET {base}/models`, Ollama also `GET /api/tags`, Anthropic
 * `GET {base}/models`. What comes back is the server's word and may be hostile: the body is read
 * up to a cap, parsed with a schema, and only ids made of visible characters of a sane length are
 * kept (at most MAX_MODELS). Never throws: a server without a list is a normal case, and the form
 * then asks for the name.
 */

export type ListProvider = 'openai' | 'openai-compatible' | 'anthropic';

export type ModelListResult = { ok: true; models: string[]; source: string } | { ok: false; message: string };

export const MAX_MODELS = 500;
const MAX_BYTES = 1024 * 1024;
const ID = /^[A-Za-z0-9][A-Za-z0-9_.:/@+-]{0,199}$/;

const OpenAiList = lazySchema(() => z.object({ data: z.array(z.object({ id: z.string() })) }));
const OllamaTags = lazySchema(() => z.object({ models: z.array(z.object({ name: z.string() })) }));

export interface ListOptions {
  provider: ListProvider;
  baseUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export async function listModels(options: ListOptions): Promise<ModelListResult> {
  const base = (options.baseUrl ?? (options.provider === 'anthropic' ? ANTHROPIC_BASE_URL : options.provider === 'openai' ? OPENAI_BASE_URL : '')).replace(/\/+$/, '');
  if (!base) return { ok: false, message: 'a base URL is needed to ask the server for its models' };
  let url: URL;
  try {
    url = new URL(`${base}/models`);
  } catch {
    return { ok: false, message: `not a URL: ${base}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'the base URL must start with http:// or https://' };
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.provider === 'anthropic') {
    headers['anthropic-version'] = '2023-06-01';
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
  } else if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const get = (target: URL) => getJson(target, headers, options);

  const first = await get(url);
  if (first.ok) {
    const parsed = OpenAiList.safeParse(first.json);
    if (parsed.success) return { ok: true, models: clean(parsed.data.data.map((m) => m.id)), source: url.toString() };
  }
  // Ollama's own list, at the server's root (its OpenAI-compatible API is under /v1).
  if (options.provider === 'openai-compatible') {
    const tags = new URL('/api/tags', url);
    const second = await get(tags);
    if (second.ok) {
      const parsed = OllamaTags.safeParse(second.json);
      if (parsed.success) return { ok: true, models: clean(parsed.data.models.map((m) => m.name)), source: tags.toString() };
    }
  }
  return { ok: false, message: first.ok ? `${url} did not answer with a list of models` : first.message };
}

/** Distinct, well-formed ids in the server's order, at most MAX_MODELS. */
function clean(ids: string[]): string[] {
  const out: string[] = [];
  for (const id of ids) {
    if (out.length >= MAX_MODELS) break;
    if (ID.test(id) && !out.includes(id)) out.push(id);
  }
  return out;
}

async function getJson(url: URL, headers: Record<string, string>, options: ListOptions): Promise<{ ok: true; json: unknown } | { ok: false; message: string }> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  try {
    const response = await (options.fetch ?? fetch)(url, { headers, signal, redirect: 'error' });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      const why = response.status === 401 || response.status === 403 ? ' (the key was refused)' : response.status === 404 ? ' (this server has no model list)' : '';
      return { ok: false, message: `${url} answered HTTP ${response.status}${why}` };
    }
    const text = await readCapped(response, MAX_BYTES);
    try {
      return { ok: true, json: JSON.parse(text) as unknown };
    } catch {
      return { ok: false, message: `${url} did not answer with a list of models` };
    }
  } catch (e) {
    if (signal.aborted) return { ok: false, message: `${url} did not answer in time` };
    return { ok: false, message: `${url}: ${errorMessage(e)}` };
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the list was larger than ${maxBytes} bytes`);
    }
    chunks.push(next.value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
