import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { script } from '../helpers/agents.js';
import { TempHome } from '../helpers/home.js';

/**
 * A value the person gave an MCP server (`${input:…}`, kept in PEPE_MCP_INPUT_*) is a secret like
 * an API key (spec 8): a tool result that quotes it (a server echoing its token, a file holding it)
 * reaches neither the model, nor the event stream a surface shows, nor the transcript, in the clear.
 */
describe('attack: an MCP input value quoted back in a tool result', function () {
  this.timeout(20_000);
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  // Failed before: only the transcript and the log masked these values; the model and the event
  // stream got the tool result as it was.
  it('is masked for the model, in the events and in the transcript', async () => {
    const value = 'mcp-input-value-4f7a9c21';
    writeFileSync(join(home.workspace, 'leak.txt'), `the id is ${value} here\n`);
    home.writeConfig({ agents: { a: { model: script(home, 'a', [{ tool_calls: [{ name: 'read_file', arguments: { path: 'leak.txt' } }] }, { text: 'done' }]), tools: ['read_file'] } } });
    const pepe = await home.pepe({ workspace: home.workspace, env: { PATH: process.env.PATH ?? '', PEPE_MCP_INPUT_WORKSPACE_ID: value } });
    const events: string[] = [];
    const r = await pepe.run({ agent: 'a', text: 'go', personPresent: false, onEvent: (e) => void events.push(JSON.stringify(e)) });
    assert.equal(r.status, 'ok');
    const tool = r.messages.find((m) => m.role === 'tool')!;
    assert.ok(tool.content.includes('[redacted]'), `the read happened: ${tool.content}`);
    assert.ok(!tool.content.includes(value), `the model got the value: ${tool.content}`);
    for (const e of events) assert.ok(!e.includes(value), `an event carried the value: ${e}`);
    const transcript = readFileSync(join(home.dir, 'sessions', 'a', `${r.sessionId}.jsonl`), 'utf8');
    assert.ok(!transcript.includes(value), 'the transcript carried the value');
    pepe.dispose();
  });
});
