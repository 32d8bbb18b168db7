import * as assert from 'node:assert/strict';
import { parseChatInput } from '../../../src/core/chat-command.js';

describe('chat input grammar (one parser for the CLI and the chat panel)', () => {
  it('reads /agent NAME, tolerating surrounding blanks', () => {
    assert.deepEqual(parseChatInput('/agent billing'), { kind: 'agent', name: 'billing' });
    assert.deepEqual(parseChatInput('  /agent   billing \n'), { kind: 'agent', name: 'billing' });
  });

  it('gives the usage for /agent without exactly one name, never a message to the model', () => {
    assert.equal(parseChatInput('/agent').kind, 'agent_usage');
    assert.equal(parseChatInput('/agent a b').kind, 'agent_usage');
  });

  it('reads /new, /trust, /exit and /quit', () => {
    assert.deepEqual(parseChatInput('/new'), { kind: 'new' });
    assert.deepEqual(parseChatInput(' /trust '), { kind: 'trust' });
    assert.deepEqual(parseChatInput('/trust me'), { kind: 'message', text: '/trust me' });
    assert.deepEqual(parseChatInput('/exit'), { kind: 'exit' });
    assert.deepEqual(parseChatInput(' /quit '), { kind: 'exit' });
  });

  it('reads /plan, /act and /start [AGENT] (plan mode); /start with two names gives the usage', () => {
    assert.deepEqual(parseChatInput('/plan'), { kind: 'mode', plan: true });
    assert.deepEqual(parseChatInput(' /act '), { kind: 'mode', plan: false });
    assert.deepEqual(parseChatInput('/start'), { kind: 'start' });
    assert.deepEqual(parseChatInput('/start  coder'), { kind: 'start', agent: 'coder' });
    assert.equal(parseChatInput('/start a b').kind, 'start_usage');
    assert.deepEqual(parseChatInput('/planning ahead'), { kind: 'message', text: '/planning ahead' });
  });

  it('keeps anything else as the message, untouched', () => {
    assert.deepEqual(parseChatInput('  hello\n'), { kind: 'message', text: '  hello\n' });
    assert.deepEqual(parseChatInput('/agents are great'), { kind: 'message', text: '/agents are great' });
    assert.deepEqual(parseChatInput('tell /agent x'), { kind: 'message', text: 'tell /agent x' });
  });
});
