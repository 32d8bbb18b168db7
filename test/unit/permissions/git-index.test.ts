import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexGitlinks } from '../../../src/core/permissions/git-index.js';
import { plainGit } from '../attacks/git-layouts.js';
import { makeTempDir, removeDir } from './helpers.js';

/** The barrier's reader of git's index finds exactly the gitlinks git lists, in every index version. */
describe('indexGitlinks (the submodules git would enter)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir('pepe-gidx-');
  });
  afterEach(() => removeDir(dir));

  function repoWithLinks(format: 'sha1' | 'sha256'): string {
    const repo = join(dir, `r-${format}`);
    mkdirSync(repo);
    plainGit(repo, 'init', '-q', `--object-format=${format}`);
    const oid = format === 'sha1' ? '1'.repeat(40) : '1'.repeat(64);
    for (const f of ['a.txt', 'deep/er/b.txt', 'z.txt']) {
      mkdirSync(join(repo, f, '..'), { recursive: true });
      writeFileSync(join(repo, f), f);
    }
    plainGit(repo, 'add', '-A');
    for (const link of ['mods/one', 'mods/two/with space', 'x'.repeat(300)]) plainGit(repo, 'update-index', '--add', '--cacheinfo', `160000,${oid},${link}`);
    return repo;
  }

  const expected = (repo: string) =>
    plainGit(repo, 'ls-files', '-s', '-z')
      .split('\0')
      .filter((l) => l.startsWith('160000 '))
      .map((l) => l.split('\t')[1]!);

  for (const format of ['sha1', 'sha256'] as const) {
    for (const version of ['2', '3', '4']) {
      it(`index version ${version}, ${format}`, () => {
        const repo = repoWithLinks(format);
        // An intent-to-add entry carries the extended flags of version 3.
        writeFileSync(join(repo, 'later.txt'), 'later');
        if (version !== '2') plainGit(repo, 'add', '-N', 'later.txt');
        plainGit(repo, 'update-index', '--index-version', version);
        const links = indexGitlinks(join(repo, '.git', 'index'));
        assert.deepEqual(links, expected(repo));
        assert.equal((links as string[]).length, 3);
      });
    }
  }

  it('no index: none; a damaged or foreign file: unsafe', () => {
    assert.deepEqual(indexGitlinks(join(dir, 'missing')), []);
    const repo = repoWithLinks('sha1');
    const bad = join(dir, 'bad');
    writeFileSync(bad, 'DIRC\0\0\0\x02\0\0\0\x05garbage');
    assert.ok('unsafe' in (indexGitlinks(bad) as object));
    writeFileSync(bad, 'not an index');
    assert.ok('unsafe' in (indexGitlinks(bad) as object));
    plainGit(repo, 'update-index', '--split-index');
    assert.ok('unsafe' in (indexGitlinks(join(repo, '.git', 'index')) as object), 'a split index is not followed');
  });
});
