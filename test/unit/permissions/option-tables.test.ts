import assert from 'node:assert/strict';
import { ALLOWED_PROGRAMS } from '../../../src/core/permissions/allow-list.js';
import { loadShellGrammar } from '../../../src/core/permissions/bash-grammar.js';
import { GIT_GLOBAL, GIT_OPTION_RISKS, GIT_READ_OPTIONS, GIT_SUBCOMMANDS } from '../../../src/core/permissions/git-options.js';
import { parseClass, type OptionTable } from '../../../src/core/permissions/option-tables.js';
import { ASKED_OPTIONS, CURL, FIND, RSYNC, SCP, SED, SFTP, SORT, SSH, WGET } from '../../../src/core/permissions/program-options.js';
import { classifyShell } from '../../../src/core/permissions/risk.js';
import { fromOptionLines, fromUsage, manPage, textOf, type DocOption } from './option-docs.js';

/**
 * Every program rule against the documentation of the version installed here: each option the
 * help text or man page lists must be classified by the rule's table (or, for an allow-listed
 * program, allowed or listed as asked), so an option that runs a program cannot slip through as
 * "not thought of". A program that is not installed is a skipped row with the reason. The tables'
 * own classes are checked to be well formed and to mean what they say when a command uses them.
 */

const rows: Array<{ program: string; docs: () => DocOption[] | null; table: OptionTable | ((o: string) => boolean) }> = [
  { program: 'ssh', docs: () => docsOf(textOf('ssh', []), fromUsage), table: SSH },
  { program: 'scp', docs: () => docsOf(textOf('scp', []), fromUsage), table: SCP },
  { program: 'sftp', docs: () => docsOf(textOf('sftp', []), fromUsage), table: SFTP },
  { program: 'rsync', docs: () => docsOf(textOf('rsync', ['--help']), (t) => fromOptionLines(t)), table: RSYNC },
  { program: 'curl', docs: () => docsOf(textOf('curl', ['--help', 'all']), (t) => fromOptionLines(t)), table: CURL },
  { program: 'wget', docs: () => docsOf(textOf('wget', ['--help']), (t) => fromOptionLines(t)), table: WGET },
  { program: 'sed', docs: () => docsOf(manPage('sed'), (t) => fromOptionLines(t, /^ {7}(?=-)/)), table: SED },
  { program: 'sort', docs: () => docsOf(textOf('sort', ['--help']), (t) => fromOptionLines(t)), table: SORT },
  { program: 'find', docs: () => docsOf(manPage('find'), (t) => fromOptionLines(t, /^ {7}(?=-)/)), table: FIND },
  ...['ls', 'cat', 'head', 'tail', 'grep'].map((p) => ({ program: p, docs: () => docsOf(textOf(p, ['--help']), (t) => fromOptionLines(t)), table: allowedOrAsked(p) })),
  { program: 'git', docs: () => docsOf(manPage('git'), (t) => fromOptionLines(t, /^ {7}(?=-)/)), table: GIT_GLOBAL },
];

function docsOf(text: string | null, read: (t: string) => DocOption[]): DocOption[] | null {
  return text === null ? null : read(text);
}

function allowedOrAsked(program: string): (o: string) => boolean {
  const spec = ALLOWED_PROGRAMS[program]!;
  const asked = ASKED_OPTIONS[program] ?? {};
  return (o) =>
    Object.prototype.hasOwnProperty.call(asked, o) ||
    (o.startsWith('--') ? [...(spec.long ?? []), ...(spec.values ?? [])].includes(o) : (spec.flags ?? '').includes(o.slice(1)) || (spec.values ?? []).includes(o));
}

const has = (table: OptionTable | ((o: string) => boolean), o: string) => (typeof table === 'function' ? table(o) : Object.prototype.hasOwnProperty.call(table, o));

describe('option tables against the installed documentation', () => {
  for (const row of rows) {
    it(`${row.program}: every documented option is classified`, function () {
      const docs = row.docs();
      if (docs === null) return this.skip(); // not installed here: a skipped row, the table stays as written
      assert.ok(docs.length > 0, `no options read from ${row.program}'s documentation`);
      const missing = docs.filter((d) => !has(row.table, d.name)).map((d) => d.name);
      assert.deepEqual(missing, [], `${row.program} documents options its table does not classify`);
    });
  }

  it('git: every subcommand git lists is classified', function () {
    const list = textOf('git', ['help', '-a']);
    if (list === null) return this.skip();
    const subs = [...list.matchAll(/^ {3}([a-z][a-z0-9-]*)\s/gm)].map((m) => m[1]!);
    assert.ok(subs.length > 50);
    // Guides (`git help attributes`…) are not commands; helpers installed by other packages are named in the table or asked.
    const guides = new Set(['attributes', 'cli', 'hooks', 'ignore', 'mailmap', 'modules', 'repository-layout', 'revisions', 'protocol-capabilities', 'protocol-common', 'protocol-http', 'protocol-pack', 'protocol-v2']);
    const missing = subs.filter((s) => !guides.has(s) && !s.startsWith('format-') && !Object.prototype.hasOwnProperty.call(GIT_SUBCOMMANDS, s) && !s.includes('.'));
    assert.deepEqual(missing, [], 'git subcommands without a class');
  });

  for (const sub of Object.keys(GIT_READ_OPTIONS)) {
    it(`git ${sub}: every documented option is in its table`, function () {
      const page = manPage(`git-${sub}`);
      if (page === null) return this.skip();
      const docs = fromOptionLines(page, /^ {7}(?=-)/).filter((o) => !/^-[A-Za-z]{2,}/.test(o.name) || o.name === '-vv');
      const table = new Set(GIT_READ_OPTIONS[sub]!.split(/\s+/).filter(Boolean).map((o) => o.replace(/=$/, '')));
      assert.deepEqual(docs.map((d) => d.name).filter((n) => !table.has(n)), []);
    });
  }

  it('every class in every table is well formed', () => {
    for (const [name, table] of Object.entries({ SSH, SCP, SFTP, RSYNC, CURL, WGET, SED, SORT, FIND, GIT_GLOBAL, ...ASKED_OPTIONS })) {
      for (const [o, c] of Object.entries(table)) assert.ok(parseClass(c), `${name} ${o}: "${c}"`);
    }
    for (const [sub, risks] of Object.entries(GIT_OPTION_RISKS)) for (const [o, c] of Object.entries(risks)) assert.ok(parseClass(c), `git ${sub} ${o}: "${c}"`);
  });

  describe('a class means what it says in a command', () => {
    before(loadShellGrammar);
    const kinds = (line: string) => new Set(classifyShell(line).hints.map((h) => h.kind));
    const tables: Array<[string, OptionTable, string]> = [
      ['ssh', SSH, 'example.com'], ['scp', SCP, 'a example.com:b'], ['sftp', SFTP, 'example.com'], ['rsync', RSYNC, 'a example.com:b'],
      ['curl', CURL, 'https://example.com'], ['wget', WGET, 'https://example.com'], ['sed', SED, 's/a/b/ f'], ['sort', SORT, 'f'],
    ];
    for (const [program, table, tail] of tables) {
      it(`${program}: each code option carries code, and an option the table does not hold does too`, () => {
        for (const [o, c] of Object.entries(table)) {
          const cls = parseClass(c)!;
          const line = `${program} ${o}${cls.value ? (o === '-o' ? ' Port=22' : ' x') : ''} ${tail}`;
          if (cls.kind === 'code') assert.ok(kinds(line).has('code'), line);
          else if (cls.kind === null && program !== 'sed') assert.ok(!kinds(line).has('code'), `${line} should not carry code`);
        }
        assert.ok(kinds(`${program} --surely-not-an-option ${tail}`).has('code'));
      });
    }

    it('git: code global options and hook-running subcommands carry code; plain reads do not', () => {
      for (const [o, c] of Object.entries(GIT_GLOBAL)) {
        const cls = parseClass(c)!;
        const line = `git ${o}${cls.value ? ' x' : ''} status`;
        assert.equal(kinds(line).has('code'), cls.kind === 'code', line);
      }
      for (const [sub, cls] of Object.entries(GIT_SUBCOMMANDS)) {
        const k = kinds(`git ${sub} x`);
        if (cls.includes('hooks') || cls.includes('code')) assert.ok(k.has('code') || sub === 'branch' || sub === 'tag' || sub === 'submodule' || sub === 'reflog' || sub === 'symbolic-ref', `git ${sub}`);
      }
      assert.ok(!kinds('git log --oneline -n 5').has('code'));
      assert.ok(kinds('git log --upload-pa=x').has('code'), 'an abbreviation git would accept is not known');
      assert.ok(kinds('git diff --ext-diff').has('code'));
      assert.ok(kinds('git status --recurse-submodules').has('code') || kinds('git grep --recurse-submodules x').has('code'));
    });
  });
});
