/**
 * File tools decide on the real path (issue 12): `resolve` follows every link and names where a
 * call really goes; `execute` opens exactly that, refuses kernel interfaces, FIFOs, sockets and
 * devices, caps what it reads, and refuses when the path changed after it was judged.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { DEFAULT_READ_BYTES, listDir, MAX_READ_BYTES, readFileTool, writeFileTool } from '../../../src/core/tools/files.js';
import { ToolRefusal } from '../../../src/core/tools/tool.js';
import { FileWorld } from './helpers.js';

const linux = process.platform === 'linux';

describe('file tools: facts on the real path', () => {
  let w: FileWorld;
  beforeEach(() => {
    w = new FileWorld();
  });
  afterEach(() => w.cleanup());

  const resolveRead = async (path: string) => (await readFileTool.resolve!({ path }, w.ctx())).paths![0]!;
  const resolveWrite = async (path: string) => (await writeFileTool.resolve!({ path, content: '' }, w.ctx())).paths![0]!;

  it('a plain file in the workspace: inside, no link', async () => {
    writeFileSync(join(w.workspace, 'notes.md'), 'hi');
    assert.deepEqual(await resolveRead('notes.md'), { requested: 'notes.md', real: join(w.workspace, 'notes.md'), access: 'read', inside: true, inPepeHome: false, viaLink: false });
  });

  it('a link in the workspace to a dotfile: outside, via a link, the real target named', async () => {
    writeFileSync(join(w.outside, '.bashrc'), 'secret-ish');
    symlinkSync(join(w.outside, '.bashrc'), join(w.workspace, 'notes.md'));
    const fact = await resolveWrite('notes.md');
    assert.equal(fact.real, join(w.outside, '.bashrc'));
    assert.equal(fact.inside, false);
    assert.equal(fact.viaLink, true);
    assert.equal(fact.access, 'write');
  });

  it('a new file below a linked folder: the folder’s real path plus the rest', async () => {
    symlinkSync(w.outside, join(w.workspace, 'docs'));
    const fact = await resolveWrite('docs/new/deeper.md');
    assert.equal(fact.real, join(w.outside, 'new', 'deeper.md'));
    assert.equal(fact.inside, false);
    assert.equal(fact.viaLink, true);
  });

  it('a dangling link is followed to where a write would create the file', async () => {
    symlinkSync(join(w.outside, '.profile'), join(w.workspace, 'todo.md'));
    const fact = await resolveWrite('todo.md');
    assert.equal(fact.real, join(w.outside, '.profile'));
    assert.equal(fact.inside, false);
    // A relative target, through a chain of two links, the first in a linked folder.
    mkdirSync(join(w.workspace, 'real-dir'));
    symlinkSync('real-dir', join(w.workspace, 'alias'));
    symlinkSync('../todo.md', join(w.workspace, 'real-dir', 'next.md'));
    const chained = await resolveWrite('alias/next.md');
    assert.equal(chained.real, join(w.outside, '.profile'));
    assert.equal(chained.viaLink, true);
  });

  it('a path into $PEPE_HOME (through a link) is marked inPepeHome', async () => {
    writeFileSync(join(w.home, 'config.json'), '{}');
    symlinkSync(w.home, join(w.workspace, 'settings'));
    const fact = await resolveWrite('settings/config.json');
    assert.equal(fact.inPepeHome, true);
    assert.equal(fact.real, join(w.home, 'config.json'));
  });

  it('links that loop are refused, not followed forever', async () => {
    symlinkSync(join(w.workspace, 'b'), join(w.workspace, 'a'));
    symlinkSync(join(w.workspace, 'a'), join(w.workspace, 'b'));
    await assert.rejects(resolveRead('a'), (e: unknown) => e instanceof ToolRefusal && /loop/.test(e.message));
    await assert.rejects(resolveWrite('a/x'), ToolRefusal);
  });

  (linux ? it : it.skip)('/proc, /sys and /dev are refused, directly or through a link', async () => {
    symlinkSync('/proc/self/environ', join(w.workspace, 'env.txt'));
    symlinkSync('/proc/self', join(w.workspace, 'me'));
    for (const p of ['/proc/self/environ', 'env.txt', 'me/environ', '/sys/kernel/hostname', '/dev/zero', '/dev/stdin']) {
      await assert.rejects(resolveRead(p), (e: unknown) => e instanceof ToolRefusal && /kernel interface|device|FIFO|socket/.test(e.message), p);
    }
    await assert.rejects(listDir.resolve!({ path: '/proc' }, w.ctx()), ToolRefusal);
  });

  it('a FIFO and a socket are refused at once', async () => {
    execFileSync('mkfifo', [join(w.workspace, 'pipe')]);
    const started = Date.now();
    await assert.rejects(resolveRead('pipe'), (e: unknown) => e instanceof ToolRefusal && /FIFO/.test(e.message));
    const r = await readFileTool.execute({ path: 'pipe' }, w.ctx());
    assert.equal(r.isError, true);
    assert.match(r.content, /FIFO/);
    assert.ok(Date.now() - started < 2000, 'a FIFO blocked the read');
    const sock = join(w.workspace, 's.sock');
    const server: Server = createServer();
    await new Promise<void>((ok) => server.listen(sock, ok));
    try {
      await assert.rejects(resolveRead('s.sock'), (e: unknown) => e instanceof ToolRefusal && /socket/.test(e.message));
    } finally {
      server.close();
    }
  });

  it('a file with other hard links is not written in place', async () => {
    writeFileSync(join(w.outside, '.gitconfig'), 'original');
    linkSync(join(w.outside, '.gitconfig'), join(w.workspace, 'notes.md'));
    await assert.rejects(resolveWrite('notes.md'), (e: unknown) => e instanceof ToolRefusal && /hard links/.test(e.message));
    const r = await writeFileTool.execute({ path: 'notes.md', content: 'pwned' }, w.ctx());
    assert.equal(r.isError, true);
    assert.equal(readFileSync(join(w.outside, '.gitconfig'), 'utf8'), 'original');
  });
});

describe('file tools: execution re-checks the path', () => {
  let w: FileWorld;
  beforeEach(() => {
    w = new FileWorld();
  });
  afterEach(() => w.cleanup());

  it('a link swapped in after the write was judged does not redirect it', async () => {
    const notes = join(w.workspace, 'notes.md');
    writeFileSync(notes, 'draft');
    writeFileSync(join(w.outside, '.bashrc'), 'original');
    const facts = await writeFileTool.resolve!({ path: 'notes.md', content: 'x' }, w.ctx());
    rmSync(notes);
    symlinkSync(join(w.outside, '.bashrc'), notes);
    const r = await writeFileTool.execute({ path: 'notes.md', content: 'pwned' }, w.ctx(facts));
    assert.equal(r.isError, true);
    assert.match(r.content, /\.bashrc/);
    assert.equal(readFileSync(join(w.outside, '.bashrc'), 'utf8'), 'original');
  });

  it('a folder swapped for a link after the write was judged does not redirect it', async () => {
    mkdirSync(join(w.workspace, 'sub'));
    const facts = await writeFileTool.resolve!({ path: 'sub/notes.md', content: 'x' }, w.ctx());
    renameSync(join(w.workspace, 'sub'), join(w.workspace, 'sub-old'));
    symlinkSync(w.outside, join(w.workspace, 'sub'));
    const r = await writeFileTool.execute({ path: 'sub/notes.md', content: 'pwned' }, w.ctx(facts));
    assert.equal(r.isError, true, r.content);
    assert.throws(() => readFileSync(join(w.outside, 'notes.md')));
  });

  it('attack: a file swapped for a link after the read was judged is not read through it', async () => {
    writeFileSync(join(w.workspace, 'notes.txt'), 'plain notes');
    writeFileSync(join(w.outside, 'id_rsa'), 'PRIVATE');
    const facts = await readFileTool.resolve!({ path: 'notes.txt' }, w.ctx());
    rmSync(join(w.workspace, 'notes.txt'));
    symlinkSync(join(w.outside, 'id_rsa'), join(w.workspace, 'notes.txt'));
    const r = await readFileTool.execute({ path: 'notes.txt' }, w.ctx(facts));
    assert.equal(r.isError, true, r.content);
    assert.doesNotMatch(r.content, /PRIVATE/);
  });

  it('attack: a folder swapped for a link after the read was judged is not read through it', async () => {
    mkdirSync(join(w.workspace, 'sub'));
    writeFileSync(join(w.workspace, 'sub', 'notes.txt'), 'plain notes');
    writeFileSync(join(w.outside, 'notes.txt'), 'PRIVATE');
    const facts = await readFileTool.resolve!({ path: 'sub/notes.txt' }, w.ctx());
    renameSync(join(w.workspace, 'sub'), join(w.workspace, 'sub-old'));
    symlinkSync(w.outside, join(w.workspace, 'sub'));
    const r = await readFileTool.execute({ path: 'sub/notes.txt' }, w.ctx(facts));
    assert.equal(r.isError, true, r.content);
    assert.doesNotMatch(r.content, /PRIVATE/);
  });

  it('a read judged for one path does not read another path the call names', async () => {
    writeFileSync(join(w.workspace, 'a.txt'), 'A');
    writeFileSync(join(w.workspace, 'b.txt'), 'B');
    const facts = await readFileTool.resolve!({ path: 'a.txt' }, w.ctx());
    const r = await readFileTool.execute({ path: 'b.txt' }, w.ctx(facts));
    // Without facts for b.txt the call stands on its own check (inside the workspace: read).
    assert.equal(r.content, 'B');
  });

  it('a file swapped for a FIFO after the read was judged is refused without blocking', async () => {
    writeFileSync(join(w.workspace, 'data.txt'), 'x');
    const facts = await readFileTool.resolve!({ path: 'data.txt' }, w.ctx());
    rmSync(join(w.workspace, 'data.txt'));
    execFileSync('mkfifo', [join(w.workspace, 'data.txt')]);
    const started = Date.now();
    const r = await readFileTool.execute({ path: 'data.txt' }, w.ctx(facts));
    assert.equal(r.isError, true);
    assert.match(r.content, /FIFO/);
    assert.ok(Date.now() - started < 2000);
  });

  it('without judged facts, a write through a link out of the workspace is refused and names the real target', async () => {
    writeFileSync(join(w.outside, '.bashrc'), 'original');
    symlinkSync(join(w.outside, '.bashrc'), join(w.workspace, 'notes.md'));
    const r = await writeFileTool.execute({ path: 'notes.md', content: 'pwned' }, w.ctx());
    assert.equal(r.isError, true);
    assert.ok(r.content.includes(join(w.outside, '.bashrc')), r.content);
    assert.equal(readFileSync(join(w.outside, '.bashrc'), 'utf8'), 'original');
    const read = await readFileTool.execute({ path: 'notes.md' }, w.ctx());
    assert.equal(read.isError, true);
    assert.doesNotMatch(read.content, /original/);
  });

  it('a write judged with its real target goes there and says so', async () => {
    writeFileSync(join(w.outside, 'shared.md'), 'old');
    symlinkSync(join(w.outside, 'shared.md'), join(w.workspace, 'shared.md'));
    const r = await w.invoke(writeFileTool, { path: 'shared.md', content: 'new' });
    assert.equal(r.isError, false, r.content);
    assert.ok(r.content.includes(`really ${join(w.outside, 'shared.md')}`), r.content);
    assert.equal(readFileSync(join(w.outside, 'shared.md'), 'utf8'), 'new');
  });

  it('creates new files and folders inside the workspace; overwrites a shorter file completely', async () => {
    let r = await w.invoke(writeFileTool, { path: 'a/b/c.txt', content: 'hello world' });
    assert.equal(r.content, 'created a/b/c.txt (11 characters)');
    r = await w.invoke(writeFileTool, { path: 'a/b/c.txt', content: 'bye' });
    assert.equal(r.content, 'overwrote a/b/c.txt (3 characters)');
    assert.equal(readFileSync(join(w.workspace, 'a/b/c.txt'), 'utf8'), 'bye');
  });

  it('a read judged outside the workspace is outside content', async () => {
    writeFileSync(join(w.outside, 'readme'), 'outside text');
    const r = await w.invoke(readFileTool, { path: join(w.outside, 'readme') });
    assert.equal(r.untrusted, true);
    assert.match(r.content, /<untrusted-content source="file [^"]*readme" mark="[0-9a-f]{16}">/);
    assert.match(r.content, /outside text/);
    assert.equal(w.outsideMarks.length, 1);
  });
});

describe('file tools: caps', () => {
  let w: FileWorld;
  beforeEach(() => {
    w = new FileWorld();
  });
  afterEach(() => w.cleanup());

  it('a huge file is cut at the default size, with a marker saying where to read on; limit never passes the cap', async () => {
    writeFileSync(join(w.workspace, 'big.txt'), 'x'.repeat(5 * 1024 * 1024));
    let r = await w.invoke(readFileTool, { path: 'big.txt' });
    assert.equal(r.content.indexOf('\n'), DEFAULT_READ_BYTES);
    assert.match(r.content, new RegExp(`read on with offset ${DEFAULT_READ_BYTES}\\]$`));
    r = await w.invoke(readFileTool, { path: 'big.txt', limit: 50 * 1024 * 1024 });
    assert.equal(r.content.indexOf('\n'), MAX_READ_BYTES);
    r = await w.invoke(readFileTool, { path: 'big.txt', offset: 5 * 1024 * 1024 - 10 });
    assert.equal(r.content, 'x'.repeat(10));
  });

  it('never cuts a UTF-8 character in two, and says nothing when the file ends exactly', async () => {
    writeFileSync(join(w.workspace, 'u.txt'), 'aé€😀');
    const r = await w.invoke(readFileTool, { path: 'u.txt', limit: 4 });
    assert.match(r.content, /^aé\n\[… cut here: 7 more bytes; read on with offset 3\]$/);
    const all = await w.invoke(readFileTool, { path: 'u.txt', limit: 10 });
    assert.equal(all.content, 'aé€😀');
  });

  it('a cancelled turn ends a file operation at once, touching nothing', async () => {
    w.cancel();
    const r = await writeFileTool.execute({ path: 'late.txt', content: 'x' }, w.ctx());
    assert.equal(r.isError, true);
    assert.match(r.content, /cancelled/);
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(!existsSync(join(w.workspace, 'late.txt')), 'the cancelled write landed');
  });

  it('a binary file is not dumped; a folder is pointed at list_dir', async () => {
    writeFileSync(join(w.workspace, 'bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]));
    assert.match((await w.invoke(readFileTool, { path: 'bin' })).content, /binary/);
    mkdirSync(join(w.workspace, 'dir'));
    assert.match((await w.invoke(readFileTool, { path: 'dir' })).content, /is a folder; use list_dir/);
  });

  it('list_dir lists what is there (links marked) and caps the entries', async () => {
    mkdirSync(join(w.workspace, 'many'));
    for (let i = 0; i < 1005; i++) writeFileSync(join(w.workspace, 'many', `f${String(i).padStart(4, '0')}`), '');
    symlinkSync(w.outside, join(w.workspace, 'out'));
    const top = await w.invoke(listDir, {});
    assert.equal(top.content, 'many/\nout@');
    const many = await w.invoke(listDir, { path: 'many' });
    assert.match(many.content, /\[… 5 more entries not shown\]$/);
    const outside = await listDir.execute({ path: 'out' }, w.ctx());
    assert.equal(outside.isError, true, 'listing outside the workspace without judged facts');
  });
});
