import assert from 'node:assert/strict';
import type { PepeConfig } from '../../../src/core/config/schema.js';
import { resolveConfigured } from '../../../src/core/slots/resolve.js';

describe('slot resolution order (spec 3.3)', () => {
  const config: PepeConfig = {
    slots: { memory: 'install_mem' },
    projects: { acme: { default_slots: { memory: 'project_mem' } } },
    agents: {
      support: { project: 'acme', slots: { memory: 'agent_mem' } },
      sales: { project: 'acme' },
      solo: {},
    },
  };

  it('agent override wins over project, install-wide and built-in', () => {
    assert.deepEqual(resolveConfigured(config, 'memory', { agent: 'support' }), { slot: 'memory', configured: 'agent_mem', scope: 'agent' });
  });

  it('project default applies to the other agents of the project', () => {
    assert.deepEqual(resolveConfigured(config, 'memory', { agent: 'sales' }), { slot: 'memory', configured: 'project_mem', scope: 'project' });
  });

  it('install-wide applies outside the project', () => {
    assert.deepEqual(resolveConfigured(config, 'memory', { agent: 'solo' }), { slot: 'memory', configured: 'install_mem', scope: 'install' });
    assert.deepEqual(resolveConfigured(config, 'memory'), { slot: 'memory', configured: 'install_mem', scope: 'install' });
  });

  it('the built-in answers when nothing is configured', () => {
    assert.deepEqual(resolveConfigured(config, 'web_search', { agent: 'support' }), { slot: 'web_search', configured: null, scope: null });
  });

  it('an explicit project resolves without an agent', () => {
    assert.equal(resolveConfigured(config, 'memory', { project: 'acme' }).configured, 'project_mem');
  });

  it('an agent override for one agent leaves the others untouched', () => {
    const others = ['sales', 'solo'].map((agent) => resolveConfigured(config, 'memory', { agent }).configured);
    assert.deepEqual(others, ['project_mem', 'install_mem']);
  });
});
