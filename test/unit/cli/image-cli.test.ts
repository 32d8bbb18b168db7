import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';
import { fixture, sse, startServer, type TestServer } from '../models/sse-server.js';

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('pepe run --image (issue 25)', function () {
  this.timeout(60_000);
  let home: TempHome;
  let server: TestServer;
  before(ensureBuilt);
  beforeEach(async () => {
    home = new TempHome();
    server = await startServer(() => sse([fixture('openai-text.sse')]));
  });
  afterEach(async () => {
    await server.close();
    home.cleanup();
  });
  const run = (...args: string[]) => pepeCli(home.dir, args, { TEST_KEY: 'sk-test-0123456789' }, home.workspace);
  const models = (base: string) => ({
    eyes: { provider: 'openai-compatible', model: 'gpt-4o', base_url: base, api_key_env: 'TEST_KEY', images: true },
    blind: { provider: 'openai-compatible', model: 'llama', base_url: base, api_key_env: 'TEST_KEY' },
  });

  it('sends each picture as an image part; a model without "images": true refuses before any request', async () => {
    home.writeConfig({ models: models(server.baseUrl), agents: { a: { model: 'eyes' }, b: { model: 'blind' } } });
    writeFileSync(join(home.workspace, 'shot.png'), Buffer.from(PNG_BASE64, 'base64'));
    let r = await run('run', 'a', 'what is this?', '--image', 'shot.png', '--image', 'shot.png');
    assert.equal(r.exitCode, 0, r.stderr);
    const user = server.requests[0]!.body.messages.find((m: any) => m.role === 'user');
    assert.deepEqual(user.content.map((p: any) => p.type), ['text', 'image_url', 'image_url']);
    assert.equal(user.content[1].image_url.url, `data:image/png;base64,${PNG_BASE64}`);

    r = await run('run', 'b', 'what is this?', '--image', 'shot.png');
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /model "blind" does not take images/);
    assert.equal(server.requests.length, 1, 'the text-only model got no request');
  });

  it('a file that is not a picture, a missing file or a FIFO is a usage error, and nothing is sent', async () => {
    home.writeConfig({ models: models(server.baseUrl), agents: { a: { model: 'eyes' } } });
    writeFileSync(join(home.workspace, 'fake.png'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    let r = await run('run', 'a', 'x', '--image', 'fake.png');
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /--image fake\.png: not a PNG, JPEG, GIF or WebP image/);
    r = await run('run', 'a', 'x', '--image', 'nowhere.png');
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /--image nowhere\.png: no such file/);
    execFileSync('mkfifo', [join(home.workspace, 'pipe.png')]);
    r = await run('run', 'a', 'x', '--image', 'pipe.png');
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /not a regular file/);
    assert.equal(server.requests.length, 0);
  });
});
