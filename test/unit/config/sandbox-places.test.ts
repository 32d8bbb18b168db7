import assert from 'node:assert/strict';
import { PepeConfig } from '../../../src/core/config/schema.js';

describe('sandbox.readable / sandbox.writable in config.json (spec 8)', () => {
  it('take absolute paths and paths under ~/; anything else is a clear error', () => {
    assert.ok(PepeConfig.safeParse({ sandbox: { readable: ['~/notes', '/srv/data', '~'], writable: ['/srv/out'] } }).success);
    for (const bad of [['notes'], ['./x'], ['~other/x'], [''], 'not-a-list']) {
      const r = PepeConfig.safeParse({ sandbox: { readable: bad } });
      assert.equal(r.success, false, JSON.stringify(bad));
      if (Array.isArray(bad) && bad[0] !== undefined) assert.match(JSON.stringify(r.error?.issues), /must be an absolute path or start with ~\//);
    }
  });
});
