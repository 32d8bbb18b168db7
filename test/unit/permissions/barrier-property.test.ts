import assert from 'node:assert/strict';
import type { ApprovalRequest, Decision, Prompter } from '../../../src/core/permissions/approval.js';
import { loadShellGrammar } from '../../../src/core/permissions/bash-grammar.js';
import { call, harness, makeTempDir, removeDir } from './helpers.js';

/**
 * Property tests: random command lines built from the grammar's constructs. The generator knows
 * whether it only used pieces of the harmless subset (allow-listed programs with allowed options,
 * plain words, && || ; |, /dev/null redirections). Whatever runs without asking must be one of
 * those; and every call, however broken, gets an outcome.
 */

/** A small seeded generator (mulberry32), so a failure names a seed that reproduces it. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Piece {
  text: string;
  safe: boolean;
}

const SAFE_PROGRAMS: Array<[string, string[]]> = [
  ['ls', ['-l', '-a', '-la', '-R', '--all', '-1']],
  ['cat', ['-n', '-A']],
  ['head', ['-n', '5', '-c']],
  ['wc', ['-l', '-w', '--lines']],
  ['grep', ['-r', '-n', '-i', '--count']],
  ['echo', ['-n']],
  ['git', []],
  ['sort', ['-u', '-n', '-r']],
  ['pwd', []],
];
const UNSAFE_PROGRAMS = ['rm', 'curl', 'sh', 'bash', 'eval', 'exec', 'command', 'source', '.', 'sed', 'awk', 'python3', 'node', 'xargs', 'env -i', 'sudo', 'make', 'npm', 'tee', 'dd', 'find . -delete', 'trap', 'alias', 'let', 'declare', 'read', 'printf -v x', 'mapfile', 'test', '['];
const UNSAFE_OPTIONS = ['--outp=x', '--output', '--in-place', '--pre=x', '--hyperl', '--exec-path=.', '--compress-program=sh', '-j9', '-Y', '--lin', '--files0-from=x'];
const SAFE_WORDS = ['src', 'README.md', 'a.txt', 'src/x.ts', 'x_1', "'hello world'", 'main', 'dir/sub', '~', 'src/*.ts', '"quoted"'];
const UNSAFE_WORDS = ['$HOME', '${x}', '$(id)', '`id`', '$((1+2))', '{a,b}', '*', '?x', '"$x"', '<(ls)', 'a[$(id)]', '$\'\\x1b\'', 'x\u202e', 'a\rb', '!(x)', '$1'];
const SAFE_GIT = ['status', 'status -s', 'log --oneline', 'log -n 3', 'branch', 'remote -v', 'rev-parse --show-toplevel', 'ls-files'];
const UNSAFE_GIT = ['diff', 'show', 'log -p', 'push', 'st', '-c x=y status', '-C .. status', 'config x', 'log --ext-diff', 'blame f', 'branch new'];
const SAFE_JOIN = [' && ', ' || ', ' ; ', ' | ', '\n'];
const UNSAFE_JOIN = [' & ', ' |& sh ', ' ;; ', ' &&& '];
const SAFE_REDIRECT = [' >/dev/null', ' 2>/dev/null', ' 2>&1', ' >/dev/null 2>&1'];
const UNSAFE_REDIRECT = [' > out', ' >> log', ' < in.txt', ' < /dev/tcp/1.2.3.4/80', ' <<< x', ' 2> err', ' >&3', ' <<EOF\nx\nEOF\n'];

function generate(r: () => number, depth = 0): Piece {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const chance = (p: number) => r() < p;
  const n = 1 + Math.floor(r() * 3);
  const parts: Piece[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0) parts.push(chance(0.9) ? { text: pick(SAFE_JOIN), safe: true } : { text: pick(UNSAFE_JOIN), safe: false });
    // Compound constructs wrap a generated command: never harmless.
    if (depth < 3 && chance(0.12)) {
      const inner = generate(r, depth + 1).text;
      const wrap = pick([`$(${inner})`, `(${inner})`, `{ ${inner}; }`, `if ${inner}; then ls; fi`, `for x in a; do ${inner}; done`, `echo "$(${inner})"`, `f() { ${inner}; }`, `! ${inner}`, `[[ -n x ]] && ${inner}`, `bash -c '${inner.replace(/'/g, '')}'`]);
      parts.push({ text: wrap, safe: false });
      continue;
    }
    let safe = true;
    let text: string;
    if (chance(0.8)) {
      const [program, options] = pick(SAFE_PROGRAMS);
      text = program;
      if (program === 'git') {
        if (chance(0.8)) text += ' ' + pick(SAFE_GIT);
        else {
          text += ' ' + pick(UNSAFE_GIT);
          safe = false;
        }
      }
      const words = Math.floor(r() * 4);
      for (let w = 0; w < words; w++) {
        if (program !== 'git' && program !== 'pwd' && options.length && chance(0.4)) {
          const opt = pick(options);
          // head -n and -c take a value: give them one.
          text += ' ' + opt + (opt === '-n' || opt === '-c' ? ' 5' : '');
        } else if (chance(0.85)) {
          if (program === 'pwd' || program === 'git') continue;
          text += ' ' + pick(SAFE_WORDS);
        } else {
          text += ' ' + (chance(0.5) ? pick(UNSAFE_WORDS) : pick(UNSAFE_OPTIONS));
          safe = false;
        }
      }
    } else {
      text = pick(UNSAFE_PROGRAMS) + (chance(0.5) ? ' ' + pick(SAFE_WORDS) : '');
      safe = false;
    }
    if (chance(0.25)) {
      if (chance(0.6)) text += pick(SAFE_REDIRECT);
      else {
        text += pick(UNSAFE_REDIRECT);
        safe = false;
      }
    }
    if (chance(0.05)) {
      text = `FOO=1 ${text}`;
      safe = false;
    }
    parts.push({ text, safe });
  }
  return { text: parts.map((p) => p.text).join(''), safe: parts.every((p) => p.safe) };
}

class AskCounter implements Prompter {
  readonly interactive = true;
  asked = 0;
  async ask(_request: ApprovalRequest): Promise<Decision> {
    this.asked++;
    return { kind: 'deny' };
  }
}

describe('barrier properties over random commands from the grammar', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => loadShellGrammar());
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => removeDir(dir));

  it('never runs unasked anything outside the harmless subset (3000 commands)', async () => {
    const person = new AskCounter();
    const h = harness(dir, { prompter: person });
    let free = 0;
    let safeSeen = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const { text, safe } = generate(rng(seed));
      if (safe) safeSeen++;
      const outcome = await h.barrier.check(call('bash', { command: text }));
      if (outcome.allowed && outcome.by === 'free') {
        free++;
        assert.ok(safe, `seed ${seed}: ${JSON.stringify(text)} ran without asking but uses pieces outside the allow-list`);
      }
    }
    // The generator is not vacuous: harmless lines do occur, and the barrier lets most of them run.
    assert.ok(safeSeen > 200, `only ${safeSeen} harmless lines generated`);
    assert.ok(free > safeSeen * 0.8, `${free} of ${safeSeen} harmless lines ran unasked`);
  });

  it('gives every call an outcome, for random bytes and random argument shapes', async () => {
    const h = harness(dir, { prompter: new AskCounter() });
    const r = rng(42);
    const alphabet = 'abc-$(){}[]<>|&;\'"`\\\n\t\r\u001b\u202e ~*?#=!%0123456789/.';
    for (let i = 0; i < 1500; i++) {
      const len = Math.floor(r() * 120);
      let text = '';
      for (let k = 0; k < len; k++) text += alphabet[Math.floor(r() * alphabet.length)];
      const shapes: unknown[] = [{ command: text }, { program: text, argv: [text] }, { command: [text] }, text, null, { program: 'ls', args: [1, {}] }];
      for (const args of shapes) {
        const outcome = await h.barrier.check(call(i % 2 ? 'bash' : 'run_script', args));
        assert.equal(typeof outcome.allowed, 'boolean');
      }
    }
  });
});
