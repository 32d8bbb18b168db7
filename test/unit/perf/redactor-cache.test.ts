import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from '../../../src/core/runtime/session-store.js';
import { RedactorCache } from '../../../src/core/secrets/redactor-cache.js';

/**
 * Issue 27: the transcript and tool results reuse one Redactor while the secret values stay the
 * same. A value that changes (a key set while Pepe runs) must be masked from the very next line.
 */
describe('redactor cache: reused while the secrets are the same, never stale', () => {
  it('the same list gives the same redactor; any change gives a new one that masks the new value', () => {
    const cache = new RedactorCache();
    const list = ['sk-first-secret-1234'];
    const a = cache.get(list);
    assert.equal(cache.get(['sk-first-secret-1234']), a);
    list.push('mutated-after-the-fact');
    assert.equal(cache.get(['sk-first-secret-1234']), a, 'the cache kept a reference to the caller\'s array');
    const b = cache.get(['sk-first-secret-1234', 'sk-second-secret-5678']);
    assert.notEqual(b, a);
    assert.equal(b.text('x sk-second-secret-5678 y'), 'x [redacted] y');
    const c = cache.get(['sk-second-secret-5678', 'sk-first-secret-1234']);
    assert.equal(c.text('sk-first-secret-1234'), '[redacted]');
    assert.equal(cache.get([]).text('sk-first-secret-1234 stays'), 'sk-first-secret-1234 stays');
  });

  it('a session line written after a secret was added masks it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pepe-redact-cache-'));
    try {
      const secrets: string[] = ['old-secret-value-1'];
      const store = new SessionStore(dir, () => [...secrets]);
      const id = store.create('a');
      store.appendMessage('a', id, { role: 'user', content: 'old-secret-value-1 and new-secret-value-2' });
      secrets.push('new-secret-value-2');
      store.appendMessage('a', id, { role: 'user', content: 'old-secret-value-1 and new-secret-value-2' });
      const lines = readFileSync(join(dir, 'a', `${id}.jsonl`), 'utf8').trim().split('\n');
      assert.match(lines[1]!, /\[redacted\] and new-secret-value-2/);
      assert.match(lines[2]!, /\[redacted\] and \[redacted\]/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
