import assert from 'node:assert/strict';
import { launcherNeedsNetwork } from '../../../src/core/config/launcher-network.js';

describe('launcherNeedsNetwork (the MCP setup\'s network choice)', () => {
  it('package runners download what they run', () => {
    assert.match(launcherNeedsNetwork(['npx', '-y', '@modelcontextprotocol/server-everything'])!, /npx downloads/);
    assert.ok(launcherNeedsNetwork(['/usr/local/bin/uvx', 'mcp-server-fetch']));
    assert.ok(launcherNeedsNetwork(['pipx', 'run', 'x']));
    assert.ok(launcherNeedsNetwork(['docker', 'run', '-i', 'img']));
    assert.ok(launcherNeedsNetwork(['npx.cmd', 'pkg']));
  });
  it('other commands (and runner sub-commands that do not fetch) are offered no network first', () => {
    assert.equal(launcherNeedsNetwork(['node', 'server.js']), null);
    assert.equal(launcherNeedsNetwork(['pipx', 'list']), null);
    assert.equal(launcherNeedsNetwork(['docker', 'ps']), null);
    assert.equal(launcherNeedsNetwork([]), null);
    assert.equal(launcherNeedsNetwork(['constructor']), null, 'no prototype names');
    assert.equal(launcherNeedsNetwork(['__proto__']), null);
  });
});
