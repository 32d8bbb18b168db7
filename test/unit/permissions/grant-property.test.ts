import assert from 'node:assert/strict';
import { loadShellGrammar } from '../../../src/core/permissions/bash-grammar.js';
import { entryCovers, riskKindsOf, scopedEntry, widenEntries } from '../../../src/core/permissions/grant-scope.js';
import { classifyShell } from '../../../src/core/permissions/risk.js';
import { SessionGrants } from '../../../src/core/permissions/session-grants.js';
import { rng } from '../../fixtures/routing-fuzz.js';

/**
 * Property: for random compositions of programs the barrier knows and their options, a grant
 * given for one call's risks (saved as "always", widened with another, or kept for the session)
 * never covers a call whose risks are not all among those granted, and never a call that runs a
 * program through an option, a hook or a variable.
 */

const PIECES = [
  'curl https://example.com', 'curl -o out.html https://example.com', 'curl -K ./rc https://example.com', 'wget -O - https://example.com',
  'wget -e x=y https://example.com', 'ssh example.com uptime', 'ssh -o ProxyCommand=id example.com', 'ssh -F ./cfg example.com',
  'scp a example.com:b', 'scp -S ./p a example.com:b', 'rsync -a a example.com:b', 'rsync -e ./p a example.com:b', 'rm -rf build',
  'touch a.txt', 'sed -i s/a/b/ f', 'sed -f s.sed f', 'sort -o out f', 'sort --compress-program=./p f', 'find . -name x -delete',
  'git status', 'git log --oneline', 'git log --ext-diff', 'git commit -m x', 'git fetch origin', 'git -c a=b status', 'git push -f origin',
  'npm test', 'npm --userconfig ./x test', 'make', 'make -f x.mk', 'FOO=1 ls', 'PATH=. ls', 'ls -la', 'cat a | grep x', 'tail -f log',
];
const JOIN = [' && ', ' ; ', ' | ', ' || '];

function line(r: () => number): string {
  const n = 1 + Math.floor(r() * 3);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(PIECES[Math.floor(r() * PIECES.length)]!);
  return parts.map((p, i) => (i === 0 ? p : JOIN[Math.floor(r() * JOIN.length)]! + p)).join('');
}

describe('property: a grant never covers a call with more risks than it was given for', function () {
  this.timeout(120_000);
  before(loadShellGrammar);

  it('holds for 600 random pairs of calls (saved entries, widened entries, session grants)', () => {
    for (let seed = 1; seed <= 600; seed++) {
      const r = rng(seed);
      const [a, b, c] = [line(r), line(r), line(r)];
      const va = classifyShell(a);
      const vb = classifyShell(b);
      const vc = classifyShell(c);
      const ra = riskKindsOf(va.hints);
      const rb = riskKindsOf(vb.hints);
      const rc = riskKindsOf(vc.hints);
      const pc = vc.programs ?? [];
      const entry = scopedEntry('bash', ra, va.programs);
      const widened = widenEntries([entry], scopedEntry('bash', rb, vb.programs));
      const grants = new SessionGrants();
      grants.grantRisks('a', 'bash', ra, va.programs);
      grants.grantRisks('a', 'bash', rb, vb.programs);
      // size counts what list() lists (the live listing skips a session whose size is 0).
      assert.equal(grants.size, grants.list().length);
      const granted = new Set([...ra, ...rb]);
      const beyond = rc.some((k) => !granted.has(k));
      const code = rc.includes('code') || rc.includes('environment') || rc.includes('control_file');
      const where = `seed ${seed}: granted [${a}] and [${b}], then [${c}] (${rc.join(',')})`;
      if (beyond || code) {
        assert.equal(widened.some((e) => entryCovers(e, 'bash', rc, pc)), false, where);
        assert.equal(grants.coversRisks('a', 'bash', rc, pc), false, where);
      }
      if (code || rc.some((k) => !ra.includes(k))) assert.equal(entryCovers(entry, 'bash', rc, pc), false, where);
      // Widening loses nothing: what either grant covered, the widened entry still covers.
      if (entryCovers(entry, 'bash', rc, pc)) assert.ok(widened.some((e) => entryCovers(e, 'bash', rc, pc)), where);
    }
  });
});
