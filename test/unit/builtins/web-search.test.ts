import assert from 'node:assert/strict';
import { BuiltinWebSearch, mapInstantAnswer } from '../../../src/core/slots/builtin/web-search.js';
import { startInstantAnswerServer } from '../helpers/ddg-server.js';

describe('built-in web_search (spec 3.5)', () => {
  it('maps abstract, answer, definition, results and nested related topics', () => {
    const hits = mapInstantAnswer({
      Heading: 'TypeScript',
      AbstractText: 'A typed superset of JavaScript.',
      AbstractURL: 'https://en.wikipedia.org/wiki/TypeScript',
      Answer: '',
      Definition: 'a language',
      DefinitionSource: 'Wordnik',
      DefinitionURL: 'https://wordnik.test/ts',
      Results: [{ Text: 'Official site - typescriptlang.org', FirstURL: 'https://www.typescriptlang.org' }],
      RelatedTopics: [
        { Text: 'JavaScript - the language of the web', FirstURL: 'https://duckduckgo.com/JavaScript' },
        { Name: 'See also', Topics: [{ Text: 'Deno - a runtime', FirstURL: 'https://duckduckgo.com/Deno' }] },
      ],
    });
    assert.deepEqual(hits, [
      { title: 'TypeScript', url: 'https://en.wikipedia.org/wiki/TypeScript', snippet: 'A typed superset of JavaScript.' },
      { title: 'Wordnik', url: 'https://wordnik.test/ts', snippet: 'a language' },
      { title: 'Official site', url: 'https://www.typescriptlang.org', snippet: 'Official site - typescriptlang.org' },
      { title: 'JavaScript', url: 'https://duckduckgo.com/JavaScript', snippet: 'JavaScript - the language of the web' },
      { title: 'Deno', url: 'https://duckduckgo.com/Deno', snippet: 'Deno - a runtime' },
    ]);
  });

  it('an empty answer is no hits', () => {
    assert.deepEqual(mapInstantAnswer({ Heading: '', AbstractText: '', RelatedTopics: [] }), []);
  });

  it('calls the configured endpoint with the documented query parameters and honours limit', async () => {
    const server = await startInstantAnswerServer();
    try {
      const search = new BuiltinWebSearch(() => server.url);
      const hits = await search.search('pepe agents', { limit: 1 });
      assert.equal(hits.length, 1);
      const q = server.requests[0]!.searchParams;
      assert.deepEqual([q.get('q'), q.get('format'), q.get('no_html'), q.get('skip_disambig')], ['pepe agents', 'json', '1', '1']);
    } finally {
      await server.close();
    }
  });

  it('an HTTP error or non-JSON body is an error (so a plugin fallback never hides it)', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      if (req.url?.includes('broken')) res.end('<html>');
      else {
        res.statusCode = 503;
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      await assert.rejects(new BuiltinWebSearch(() => `http://127.0.0.1:${port}/`).search('x'), /HTTP 503/);
      await assert.rejects(new BuiltinWebSearch(() => `http://127.0.0.1:${port}/broken`).search('x'), /did not answer with JSON/);
    } finally {
      server.close();
    }
  });
});
