import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertTasksHomeApart, tasksHome } from '../../../src/core/tasks/data-home.js';
import { TaskStore, type TaskRecord } from '../../../src/core/tasks/record.js';

const record = (id: string, over: Partial<TaskRecord> = {}): TaskRecord => ({
  id, agent: 'a', text: 't', status: 'done', checkout: '/c', gitDir: '/c/.git', base: 'HEAD', baseCommit: 'a'.repeat(40),
  branch: `pepe/task-${id}`, worktree: `/w/${id}`, worktreeGitDir: `/c/.git/worktrees/${id}`, createdAt: new Date().toISOString(), turns: 0, ...over,
});

describe('background tasks: the tasks folder and the record store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-task-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the tasks folder: PEPE_TASKS_HOME, else the XDG data home, else the platform default; never in the checkout or PEPE_HOME', () => {
    assert.equal(tasksHome({ PEPE_TASKS_HOME: '/x/t' }, '/h', 'linux'), '/x/t');
    assert.throws(() => tasksHome({ PEPE_TASKS_HOME: 'rel' }, '/h', 'linux'), /absolute/);
    assert.equal(tasksHome({ XDG_DATA_HOME: '/d' }, '/h', 'linux'), '/d/pepe/tasks');
    assert.equal(tasksHome({}, '/h', 'linux'), '/h/.local/share/pepe/tasks');
    assert.equal(tasksHome({}, '/h', 'darwin'), '/h/Library/Application Support/pepe/tasks');
    assert.throws(() => assertTasksHomeApart('/repo/.tasks', '/repo', '/h/.pepe'), /outside the checkout/);
    assert.throws(() => assertTasksHomeApart('/h/.pepe/tasks', '/repo', '/h/.pepe'), /outside PEPE_HOME/);
    assert.throws(() => assertTasksHomeApart('/', '/repo', '/h/.pepe'), /outside the checkout/);
    assertTasksHomeApart('/h/.local/share/pepe/tasks', '/repo', '/h/.pepe');
  });

  it('records round-trip; a unique prefix names one; an ambiguous or unknown one is refused; a malformed file is left out', () => {
    const store = new TaskStore(dir);
    store.write(record('abc123000000'));
    store.write(record('abd456000000'));
    assert.equal(store.resolve('abc').id, 'abc123000000');
    assert.throws(() => store.resolve('ab'), /names 2 tasks/);
    assert.throws(() => store.resolve('ff'), /no task ff/);
    assert.throws(() => store.resolve('../x'), /not a task id/);
    writeFileSync(join(store.recordsDir, 'bad000000000.json'), JSON.stringify({ ...record('bad000000000'), status: 'owned' }));
    writeFileSync(join(store.recordsDir, 'cafe00000000.json'), '{not json');
    assert.deepEqual(store.list().map((r) => r.id), ['abc123000000', 'abd456000000']);
    assert.throws(() => store.write({ ...record('abc123000000'), baseCommit: 'HEAD' }));
    store.update('abc123000000', () => ({ status: 'failed', error: 'x' }));
    assert.equal(store.read('abc123000000')!.status, 'failed');
  });
});
