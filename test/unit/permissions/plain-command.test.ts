/**
 * The plain-line shortcut (src/core/permissions/plain-command.ts) reads a line exactly as the bash
 * grammar does, or leaves it to the grammar: checked against the grammar on every line here,
 * generated and hand-picked.
 */
import assert from 'node:assert/strict';
import { loadShellGrammar } from '../../../src/core/permissions/bash-grammar.js';
import { parsePlainCommand } from '../../../src/core/permissions/plain-command.js';
import { parseShell, parseShellWithGrammar } from '../../../src/core/permissions/shell-syntax.js';

before(() => loadShellGrammar());

/** A small deterministic generator (no dependency, the same lines every run). */
function rng(seed: number) {
  return () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
    return ((seed >>> 0) % 1_000_000) / 1_000_000;
  };
}

const PIECES = ['a', 'ls', 'git', 'npm', 'test', '-la', '--x=1', 'x=1', '=', '1', '2', '0x1', '.', '..', '/', './a', 'a/b', ':', '@', '%', '+', ',', '-', '--', 'a,b', 'a:b', 'if', 'done', 'in', 'export', 'unset', 'time', 'declare', 'local', '!', '#', '~', '*', '?', '[', ']', '{', '}', '{a,b}', '$', '$x', "'", '"', '\\', '|', '&', ';', '<', '>', '(', ')', '`', '^', '\t', '\n', ' ', '  ', 'é', '\u200b', '2>', '&>', 'a=b', 'A=1'];

describe('the plain-line shortcut agrees with the bash grammar', () => {
  it('every generated line: the shortcut gives the grammar\'s reading, or declines', () => {
    const next = rng(27);
    let taken = 0;
    for (let i = 0; i < 20_000; i++) {
      const n = 1 + Math.floor(next() * 5);
      const words = Array.from({ length: n }, () => PIECES[Math.floor(next() * PIECES.length)]!);
      const line = words.join(next() < 0.8 ? ' ' : '');
      const fast = parsePlainCommand(line);
      if (!fast) continue;
      taken++;
      assert.deepEqual(fast, parseShellWithGrammar(line), `line ${JSON.stringify(line)}`);
    }
    assert.ok(taken > 1000, `only ${taken} generated lines took the shortcut`);
  });

  it('takes the everyday plain lines', () => {
    for (const line of ['true', 'ls -la src', 'npm test', 'git status', 'git log -n 5 --oneline', 'node --version', 'make -j4 all', 'grep -rn foo src/a.ts', 'cat a/b.txt', 'ls a:b x,y @z 50% c++']) {
      assert.ok(parsePlainCommand(line), line);
      assert.deepEqual(parseShell(line), parseShellWithGrammar(line), line);
    }
  });

  it('leaves to the grammar every line with anything but plain words', () => {
    for (const line of ['FOO=1 make', 'x=1', 'ls --x=1', '- x', '-x', 'export A', 'unset A', 'declare -x A', 'local a', 'if true', 'time ls', 'echo done', 'ls ~', 'ls ~/x', 'echo *', 'echo a?', 'echo {a,b}', 'echo $HOME', 'echo `id`', "echo 'a'", 'echo "a"', 'echo a\\ b', 'a;b', 'a && b', 'a | b', 'a > b', 'a 2>b', 'a #c', ' a', 'a ', 'a  b', 'a\tb', 'a\nb', 'écho', 'a\u200bb', '', 'a'.repeat(5000)]) {
      assert.equal(parsePlainCommand(line), null, JSON.stringify(line));
    }
  });
});
