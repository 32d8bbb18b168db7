// The README's first command: Pepe on a throwaway PEPE_HOME, driven through the real `pepe`
// program (dist/cli.js) with scripted mock models. No keys, no network.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const cli = join(root, 'dist/cli.js');
const home = mkdtempSync(join(tmpdir(), 'pepe-demo-'));
const env = { ...process.env, PEPE_HOME: home, DEMO_API_KEY: 'sk-demo-not-for-shells' };
let failed = false;

const step = (title) => console.log(`\n\x1b[1m# ${title}\x1b[0m`);
const write = (path, text) => {
  mkdirSync(join(home, path, '..'), { recursive: true });
  writeFileSync(join(home, path), text);
};

function pepe(...args) {
  console.log(`\x1b[2m$ pepe ${args.map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(' ')}\x1b[0m`);
  try {
    return execFileSync('node', [cli, ...args], { env, cwd: home, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

  } catch (e) {
    return `${e.stdout ?? ''}(exit ${e.status})\n`;
  }
}
const show = (...args) => process.stdout.write(pepe(...args));
const expect = (ok, what) => {
  if (!ok) {
    failed = true;
    console.log(`\x1b[31m✗ expected: ${what}\x1b[0m`);
  }
};

try {
  console.log(`Pepe demo (PEPE_HOME=${home})`);

  step('An agent with a memory and a scripted mock model');
  write('agents/ops/MEMORY.md', '# Ops notes\n\n- Deploys go out on Tuesdays at 10:00 from the main branch.\n- The on-call phone is in the blue drawer.\n');
  write('ops.json', JSON.stringify({
    steps: [
      { text: 'Let me check my notes. ', tool_calls: [{ name: 'memory_search', arguments: { query: 'deploy' } }] },
      { text: 'Now the machine. ', tool_calls: [{ name: 'bash', arguments: { command: 'uname -s && echo "disk ok"' } }] },
      { text: 'Deploys go out on Tuesdays at 10:00. I asked to run a check on this machine; it needs your approval.' },
      { text: 'The check ran (Linux, disk ok). All set for Tuesday at 10:00.' },
    ],
  }));
  show('agent', 'add', 'ops', '--model', 'mock:ops.json', '--tools', 'memory_search,bash');

  step('A turn: it searches memory, then wants to run a shell command. Nobody is here to approve, so the call is parked');
  const first = pepe('run', 'ops', 'When do we deploy, and is this machine ready?', '--json')
    .trim().split('\n').map((l) => JSON.parse(l));
  for (const e of first) {
    if (e.type === 'tool_call') console.log(`  ⚙ ${e.name} ${JSON.stringify(e.arguments)}`);
    if (e.type === 'tool_result') console.log(`  ${e.isError ? '✗' : '✓'} ${e.content.split('\n')[0]}`);
  }
  const end = first.at(-1);
  console.log(end.content);
  expect(end.type === 'turn_end' && end.status === 'ok', 'the turn ends');
  const pending = JSON.parse(pepe('approvals', 'list', '--json'));
  show('approvals', 'list');
  expect(pending.length === 1 && pending[0].tool === 'bash', 'one parked bash call');

  step('A person approves it; the next turn runs it and the agent answers');
  show('approvals', 'approve', pending[0].id);
  const second = pepe('run', 'ops', 'Approved, go ahead.', '--session', end.sessionId, '--json').trim().split('\n').map((l) => JSON.parse(l));
  const followUp = second.find((e) => e.type === 'approval_followup');
  for (const item of followUp?.items ?? []) console.log(`  ↻ ${item.tool} ran:\n${item.content.replace(/^/gm, '    │ ')}`);
  console.log(second.at(-1).content);
  expect(followUp?.items[0]?.status === 'ran', 'the approved command ran');

  step('A routed consultation: triage → billing → refunds, along routes granted one direction at a time');
  const send = (to, message) => ({ tool_calls: [{ name: 'send_to_agent', arguments: { to, message } }] });
  write('triage.json', JSON.stringify({ steps: [send('billing', 'A customer wants a refund for invoice 42.'), { text: 'Billing checked with refunds: the refund for invoice 42 is approved, $42 back to the card in 3 days.' }] }));
  write('billing.json', JSON.stringify({ steps: [send('refunds', 'Is invoice 42 refundable?'), { text: 'Refunds approved it: $42 back to the card.' }] }));
  write('refunds.json', JSON.stringify({ steps: [{ text: 'Yes: invoice 42 is refundable, $42 back to the card within 3 days.' }] }));
  show('agent', 'add', 'refunds', '--model', 'mock:refunds.json', '--tools', 'memory_search');
  show('agent', 'add', 'billing', '--model', 'mock:billing.json', '--tools', 'send_to_agent', '--can-message', 'refunds');
  show('agent', 'add', 'triage', '--model', 'mock:triage.json', '--tools', 'send_to_agent', '--can-message', 'billing,refunds');
  const routed = pepe('run', 'triage', 'I want my money back for invoice 42');
  process.stdout.write(routed);
  expect(/approved/.test(routed), 'triage answers with what refunds said');
  const back = pepe('agent', 'route', 'refunds', 'triage', '--remove');
  process.stdout.write(back);
  expect(/no route refunds → triage/.test(back), 'routes are directed: nothing opened back');

  step('Slots: install the seed example plugin and pin the memory slot to it');
  show('plugin', 'install', join(root, 'docs/examples/plugins/example_memory.mjs'));
  show('slot', 'set', 'memory', 'example_memory', '--agent', 'ops');
  show('slot', 'list', '--agent', 'ops');

  step('A plugin stuck in an infinite loop is stopped at its deadline; the built-in answers, nothing hangs');
  write('plugins/stuck_memory.mjs', "export const name = () => 'stuck_memory';\nexport const slot = () => 'memory';\nexport function search() { for (;;) {} }\n");
  show('slot', 'set', 'memory', 'stuck_memory', '--agent', 'ops');
  const test = JSON.parse(pepe('slot', 'test', 'memory', '--agent', 'ops', '--query', 'deploy'));
  console.log(`  occupant ${test.occupant}, answered by ${test.answeredBy} (${test.fallback?.reason}: ${test.fallback?.detail}) in ${Math.round(test.durationMs)} ms`);
  console.log(`  ${test.result.map((h) => h.entry).join('\n  ')}`);
  expect(test.answeredBy === 'builtin' && test.fallback?.reason === 'timeout', 'the built-in answered after the deadline');

  step('The sandbox never sees secrets (DEMO_API_KEY is set in this process)');
  const envTest = JSON.parse(pepe('slot', 'test', 'sandbox', '--', 'sh', '-c', 'env | grep DEMO_API_KEY || echo "no DEMO_API_KEY here"'));
  console.log(`  ${envTest.result.output.trim()}`);
  expect(!envTest.result.output.includes('sk-demo'), 'the key stays out of the sandbox');

  step('Remove the pinned plugin: slot list and doctor say so');
  show('plugin', 'remove', 'stuck_memory');
  show('slot', 'list', '--agent', 'ops');
  show('doctor');
} finally {
  rmSync(home, { recursive: true, force: true });
}
if (failed) {
  console.log('\nThe demo did not go as expected.');
  process.exitCode = 1;
} else console.log('\nDemo complete.');
