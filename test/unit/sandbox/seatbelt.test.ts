import assert from 'node:assert/strict';
import { seatbeltProfile, type ConfinementPolicy } from '../../../src/core/sandbox/index.js';

describe('Seatbelt profile (spec 3.5, macOS)', () => {
  const policy: ConfinementPolicy = {
    cwd: '/Users/ann/proj',
    writable: ['/Users/ann/proj'],
    readOnly: ['/Users/ann/proj/.git/hooks', '/Users/ann/proj/.git/config'],
    hidden: ['/Users/ann/.pepe', '/Users/ann/.ssh', '/Users/ann/.netrc'],
    network: false,
  };

  it('denies every write but the workspace, keeps git files read-only, hides secrets, no network', () => {
    const text = seatbeltProfile(policy);
    const lines = text.trim().split('\n');
    assert.equal(lines[0], '(version 1)');
    assert.ok(lines.includes('(deny file-write*)'));
    assert.ok(lines.includes('(deny network*)'));
    assert.ok(lines.includes('(allow file-read* file-write* (subpath "/Users/ann/proj"))'));
    assert.ok(lines.includes('(deny file-write* (subpath "/Users/ann/proj/.git/hooks"))'));
    assert.ok(lines.includes('(deny file-read* file-write* (subpath "/Users/ann/.ssh"))'));
    assert.ok(lines.includes('(deny file-read* file-write* (subpath "/Users/ann/.pepe"))'));
    assert.ok(lines.includes('(deny file-write* (literal "/Users/ann/proj/.git"))'), '.git cannot be renamed away');
    assert.ok(lines.includes('(deny process-info* (target others))'), 'other processes’ environment is refused');
    assert.match(text, /\(deny mach-lookup .*com\.apple\.SecurityServer/, 'no keychain');
    // Later rules win in Seatbelt: the read-only hook folder comes after the writable workspace.
    assert.ok(lines.indexOf('(deny file-write* (subpath "/Users/ann/proj/.git/hooks"))') > lines.indexOf('(allow file-read* file-write* (subpath "/Users/ann/proj"))'));
  });

  it('with the network allowed: the network, but not the host’s local sockets', () => {
    const text = seatbeltProfile({ ...policy, network: true });
    assert.doesNotMatch(text, /\(deny network\*\)/);
    assert.match(text, /\(deny network-outbound \(remote unix-socket\)\)/);
  });

  it('quotes paths (a hostile folder name cannot add rules) and uses the /private real paths', () => {
    const text = seatbeltProfile({ ...policy, writable: ['/tmp/a") (allow file-write* (subpath "/'] });
    assert.ok(text.includes('(allow file-read* file-write* (subpath "/private/tmp/a\\") (allow file-write* (subpath \\"'), text);
    // Same number of rules as with a plain name: nothing was injected.
    assert.equal(text.split('\n').length, seatbeltProfile({ ...policy, writable: ['/tmp/a'] }).split('\n').length);
  });
});
