import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insideWorkspace } from '../../../src/extension/chat/workspace-path.js';

/*
 * A chat card's "Open" and "Show changes" take a path from a tool's arguments, that is from the
 * model: it must not open anything outside the workspace, however the path is written.
 */
describe('chat: paths from a card are opened only inside the workspace', () => {
  let root: string;
  let ws: string;
  let outside: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'pepe-chat-path-')));
    ws = join(root, 'ws');
    outside = join(root, 'outside');
    mkdirSync(join(ws, 'src'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(ws, 'src', 'a.ts'), 'a');
    writeFileSync(join(outside, 'secret.txt'), 's');
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'link.txt'));
    symlinkSync(outside, join(ws, 'door'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('a workspace file, relative or absolute, is inside', async () => {
    assert.deepEqual(await insideWorkspace(ws, 'src/a.ts'), { real: join(ws, 'src', 'a.ts'), rel: join('src', 'a.ts') });
    assert.equal((await insideWorkspace(ws, join(ws, 'src', 'a.ts'))).rel, join('src', 'a.ts'));
    assert.equal((await insideWorkspace(ws, 'src/deleted.ts')).rel, join('src', 'deleted.ts'), 'a file the turn deleted');
  });

  it('refuses ../, absolute paths elsewhere, the workspace itself, and links that lead out', async () => {
    for (const p of ['../outside/secret.txt', join(outside, 'secret.txt'), '/etc/passwd', '.', 'link.txt', 'door/secret.txt', 'door/not-yet.txt', 'src/../../outside/secret.txt']) {
      await assert.rejects(insideWorkspace(ws, p), /not inside the workspace/, p);
    }
  });
});
