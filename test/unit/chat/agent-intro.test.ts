import assert from 'node:assert/strict';
import { agentIntro } from '../../../src/core/agent-intro.js';

describe('agentIntro: what the empty chat says about its agent', () => {
  it('its tools, the agents it consults and its MCP servers in one line; examples its tools answer', () => {
    const intro = agentIntro({ agents: { ops: { tools: ['read_file', 'bash', 'send_to_agent'], can_message: ['billing'], mcp: ['docs', 'mcp__everything__echo'] } } } as never, 'ops');
    assert.deepEqual(intro, {
      agent: 'ops',
      summary: 'Tools: read_file, bash · Consults: billing · MCP: docs, echo (everything)',
      examples: ['Read the README and tell me how to build this project.', 'Run the tests and tell me what fails.', 'Ask billing what it can help with.'],
    });
  });

  it('an agent without tools gets general examples; an unknown agent gets none', () => {
    const intro = agentIntro({ agents: { chat: { tools: [] } } } as never, 'chat');
    assert.equal(intro?.summary, 'No tools: it answers from the conversation');
    assert.equal(intro?.examples.length, 3);
    assert.equal(agentIntro({ agents: {} } as never, 'nobody'), null);
  });
});
