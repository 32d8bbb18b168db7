// The README's first command: a walk-through of Pepe on a throwaway PEPE_HOME, using the real
// `pepe` program (dist/cli.js) and real plugin files. No keys, no network.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const cli = join(root, 'dist/cli.js');
const home = mkdtempSync(join(tmpdir(), 'pepe-demo-'));
const env = { ...process.env, PEPE_HOME: home, DEMO_API_KEY: 'sk-demo-not-for-shells' };

function step(title) {
  console.log(`\n\x1b[1m# ${title}\x1b[0m`);
}

function pepe(...args) {
  console.log(`$ pepe ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  try {
    const out = execFileSync('node', [cli, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    process.stdout.write(out);
  } catch (e) {
    process.stdout.write(e.stdout ?? '');
    process.stdout.write(e.stderr ?? '');
    console.log(`(exit ${e.status})`);
  }
}

try {
  console.log(`Pepe demo: PEPE_HOME=${home}`);

  step('Every slot starts with its built-in occupant');
  pepe('slot', 'list');

  step('Install the seed example plugin and pin the memory slot to it');
  pepe('plugin', 'install', join(root, 'docs/examples/plugins/example_memory.mjs'));
  pepe('slot', 'set', 'memory', 'example_memory');
  pepe('slot', 'test', 'memory', '--query', 'deploy');

  step('An agent with its own memory, answered by the built-in (agent override → project → install → built-in)');
  mkdirSync(join(home, 'agents/support'), { recursive: true });
  writeFileSync(join(home, 'agents/support/MEMORY.md'), '# Support notes\n\n- The deploy key is rotated every Monday.\n- Refunds over $500 need a manager.\n');
  pepe('agent', 'add', 'support', '--model', 'mock', '--project', 'acme');
  pepe('slot', 'clear', 'memory');
  pepe('slot', 'test', 'memory', '--agent', 'support', '--query', 'DEPLOY');

  step('A plugin stuck in an infinite loop: stopped at its deadline, the built-in answers, nothing hangs');
  writeFileSync(join(home, 'plugins/stuck_memory.mjs'),
    "export const name = () => 'stuck_memory';\nexport const slot = () => 'memory';\nexport function search() { for (;;) {} }\n");
  const config = JSON.parse(execFileSync('cat', [join(home, 'config.json')], { encoding: 'utf8' }));
  config.slot_deadlines_ms = { memory: 500 };
  writeFileSync(join(home, 'config.json'), JSON.stringify(config, null, 2));
  pepe('slot', 'set', 'memory', 'stuck_memory', '--agent', 'support');
  pepe('slot', 'test', 'memory', '--agent', 'support', '--query', 'deploy');
  pepe('slot', 'list', '--agent', 'support');

  step('The sandbox never sees secrets (DEMO_API_KEY is set in this process)');
  pepe('slot', 'test', 'sandbox', '--', 'sh', '-c', 'env | grep -c DEMO_API_KEY || echo "no DEMO_API_KEY in the sandbox"');

  step('Remove a pinned plugin: the slot says so, and doctor notices');
  pepe('plugin', 'remove', 'stuck_memory');
  pepe('slot', 'list', '--agent', 'support');
  pepe('doctor');
} finally {
  rmSync(home, { recursive: true, force: true });
}
