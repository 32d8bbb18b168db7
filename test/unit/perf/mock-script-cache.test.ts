import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MockProvider } from '../../../src/core/models/mock.js';
import { loadMockScriptCached } from '../../../src/core/models/mock-script.js';

/** Issue 27: a mock script is read once while unchanged; a changed or broken file is read again. */
describe('mock script cache', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-mock-cache-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a changed script (even of the same size) is played as it is now; no caller can change it for the next', async () => {
    const file = join(dir, 's.json');
    writeFileSync(file, JSON.stringify({ steps: [{ text: 'aaaa', tool_calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }] }));
    const first = loadMockScriptCached(file);
    assert.equal(first.steps[0]!.text, 'aaaa');
    assert.throws(() => ((first.steps[0] as { text?: string }).text = 'changed by a caller'), TypeError);
    assert.throws(() => ((first.steps[0]!.tool_calls![0]!.arguments as { path: string }).path = 'elsewhere'), TypeError);
    assert.equal(loadMockScriptCached(file).steps[0]!.text, 'aaaa');
    // What the provider hands on is a copy: a caller that changes the call's arguments (a tool
    // normalising them, say) changes nothing of the next play.
    const play = async () => {
      const calls: { arguments: unknown }[] = [];
      for await (const ev of new MockProvider('m', loadMockScriptCached(file)).stream({ messages: [{ role: 'user', content: 'go' }], tools: [] })) if (ev.type === 'tool_call') calls.push(ev);
      return calls;
    };
    const [call] = await play();
    (call!.arguments as { path: string }).path = 'changed';
    assert.deepEqual((await play())[0]!.arguments, { path: 'a.txt' });
    writeFileSync(file, JSON.stringify({ steps: [{ text: 'bbbb' }] }));
    assert.equal(loadMockScriptCached(file).steps[0]!.text, 'bbbb');
    writeFileSync(file, JSON.stringify({ steps: [{ tool_call: 'typo' }] }));
    assert.throws(() => loadMockScriptCached(file), /mock script/);
    rmSync(file);
    assert.throws(() => loadMockScriptCached(file), /cannot read it/);
  });

  it('a named pipe named as the script is refused at once, not read (reading it would block the process for ever)', function () {
    this.timeout(60_000);
    const fifo = join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    // In a child process with a deadline: the old read blocked the whole process, test runner included.
    const module = pathToFileURL(join(process.cwd(), 'src/core/models/mock-script.ts')).href;
    const code = `import(${JSON.stringify(module)}).then((m) => { try { m.loadMockScript(${JSON.stringify(fifo)}); console.log('read'); } catch (e) { console.log(String(e.message)); } })`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.signal, null, `the child was still blocked on the pipe after 30 s: ${run.stderr}`);
    assert.match(run.stdout, /cannot read it \(not a regular file\)/, run.stdout + run.stderr);
  });
});
