import * as z from '../../zod.js';
import type { WebHit } from '../contracts.js';
import { lazySchema } from '../../lazy-schema.js';

export const DEFAULT_WEB_SEARCH_ENDPOINT = 'https://api.duckduckgo.com/';

interface Topic {
  Text?: string;
  FirstURL?: string;
  Name?: string;
  Topics?: Topic[];
}
const Topic: z.ZodMiniType<Topic> = lazySchema(() =>
  z.lazy(() =>
    z.looseObject({
      Text: z.optional(z.string()),
      FirstURL: z.optional(z.string()),
      Name: z.optional(z.string()),
      Topics: z.optional(z.array(Topic)),
    }),
  ),
);

// The Instant Answer API returns "" for absent fields; everything is optional here.
const InstantAnswer = lazySchema(() =>
  z.looseObject({
    Heading: z.optional(z.string()),
    AbstractText: z.optional(z.string()),
    AbstractURL: z.optional(z.string()),
    AbstractSource: z.optional(z.string()),
    Answer: z.optional(z.union([z.string(), z.number(), z.looseObject({})])),
    Definition: z.optional(z.string()),
    DefinitionURL: z.optional(z.string()),
    DefinitionSource: z.optional(z.string()),
    Results: z.optional(z.array(Topic)),
    RelatedTopics: z.optional(z.array(Topic)),
  }),
);

/** Splits "Title - rest" the way DuckDuckGo formats topic texts. */
function topicHit(t: Topic): WebHit | null {
  if (!t.Text) return null;
  const dash = t.Text.indexOf(' - ');
  return { title: dash > 0 ? t.Text.slice(0, dash) : null, url: t.FirstURL || null, snippet: t.Text };
}

export function mapInstantAnswer(body: unknown): WebHit[] {
  const data = InstantAnswer.parse(body);
  const hits: WebHit[] = [];
  if (data.AbstractText) hits.push({ title: data.Heading || null, url: data.AbstractURL || null, snippet: data.AbstractText });
  if (typeof data.Answer === 'string' && data.Answer) hits.push({ title: data.Heading ? `${data.Heading} (answer)` : 'Answer', url: null, snippet: data.Answer });
  if (typeof data.Answer === 'number') hits.push({ title: 'Answer', url: null, snippet: String(data.Answer) });
  if (data.Definition) hits.push({ title: data.DefinitionSource || 'Definition', url: data.DefinitionURL || null, snippet: data.Definition });
  const visit = (topics: Topic[] | undefined) => {
    for (const t of topics ?? []) {
      if (t.Topics) visit(t.Topics);
      const hit = topicHit(t);
      if (hit) hits.push(hit);
    }
  };
  visit(data.Results);
  visit(data.RelatedTopics);
  return hits;
}

/** The built-in web_search occupant (spec 3.5): the DuckDuckGo Instant Answer API. */
export class BuiltinWebSearch {
  constructor(private readonly endpoint: () => string = () => DEFAULT_WEB_SEARCH_ENDPOINT) {}

  async search(query: string, opts: { limit?: number; signal?: AbortSignal } = {}): Promise<WebHit[]> {
    const url = new URL(this.endpoint());
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    url.searchParams.set('no_html', '1');
    url.searchParams.set('skip_disambig', '1');
    const res = await fetch(url, { signal: opts.signal ?? AbortSignal.timeout(15_000), headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`web search failed: HTTP ${res.status} from ${url.host}`);
    const text = await res.text();
    let body: unknown;
    try {
      body = text.trim() ? JSON.parse(text) : {};
    } catch {
      throw new Error(`web search failed: ${url.host} did not answer with JSON`);
    }
    const hits = mapInstantAnswer(body);
    return opts.limit !== undefined ? hits.slice(0, opts.limit) : hits;
  }
}
