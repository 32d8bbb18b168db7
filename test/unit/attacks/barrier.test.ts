import assert from 'node:assert/strict';
import type { ApprovalRequest, BarrierOutcome, Decision, Prompter } from '../../../src/core/permissions/approval.js';
import { loadShellGrammar } from '../../../src/core/permissions/bash-grammar.js';
import { classifyShell } from '../../../src/core/permissions/risk.js';
import { markOutsideContent, newRunState } from '../../../src/core/permissions/run-state.js';
import type { PathFact } from '../../../src/core/tools/tool.js';
import { call, harness, makeTempDir, removeDir } from '../permissions/helpers.js';
import { recordAttacks } from './record.js';

/**
 * The barrier tried as an attacker would (issue 13), with a person present who answers "deny"
 * to everything: nothing below may run without that person being asked, and every call gets an
 * outcome.
 */

/** A person who says no to everything, and remembers what they were shown. */
class Denier implements Prompter {
  readonly interactive = true;
  readonly asked: ApprovalRequest[] = [];
  constructor(private readonly answer: Decision = { kind: 'deny' }) {}
  async ask(request: ApprovalRequest): Promise<Decision> {
    this.asked.push(request);
    return this.answer;
  }
}

const HOME_CTX = { home: '/home/victim', pepeHome: '/home/victim/.pepe' };

describe('attacks on the permission barrier', () => {
  recordAttacks('barrier attacks', 'asked (or refused) with a person who denies everything; every call gets an outcome');
  let dir: string;
  before(() => loadShellGrammar());
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => removeDir(dir));

  async function mustAsk(command: string): Promise<ApprovalRequest> {
    const person = new Denier();
    const h = harness(dir, { prompter: person, catastrophes: HOME_CTX });
    const outcome = await h.barrier.check(call('bash', { command }));
    assert.equal(outcome.allowed, false, `${JSON.stringify(command)} ran without asking`);
    assert.equal(person.asked.length, 1, `${JSON.stringify(command)}: the person was not asked (${JSON.stringify(outcome)})`);
    return person.asked[0]!;
  }

  const classes: Record<string, string[]> = {
    'builtins that evaluate their arguments or change lookup': [
      'eval ls', 'source ./x.sh', '. ./x.sh', 'exec ls', 'command ls', 'builtin cd /', 'enable -f ./x.so x', 'trap "id" EXIT',
      "alias ls='rm -rf x'", 'export -f ls', 'declare -a a', 'typeset -f x', 'let x=1', 'read -a x', 'printf -v x hi', 'mapfile x', 'hash -p ./x ls',
      'set -o posix', 'shopt -s extdebug', 'unset PATH', 'PATH=. ls',
    ],
    'arithmetic and array subscripts': [
      'echo $((a[$(id)]))', 'x[$(id)]=1', "test -v 'a[$(id)]'", "[ -v 'a[$(id)]' ]", '[[ -v a[$(id)] ]]', '(( a[$(id)] ))', 'echo ${a[$(id)]}', 'echo $((1+1))',
    ],
    'brace expansion': ['echo {a,b}', '{ls,-la}', 'echo a{1..3}', 'ls {.,..}'],
    'abbreviated long options and option spellings the rules do not know': [
      'sort --outp=x y', 'sort --compress-prog=sh y', 'ls --hyperl', 'tail -f log', 'sort -T /tmp y', 'git log --outp=x', 'head --lin=3 f',
      'date -s 2030-01-01', 'date 010100002030', 'uniq in out', 'file -C -m x', 'tree -o out', 'find . -fprint out', 'find . -exec id ;', 'rg -z x',
    ],
    'input redirection from network pseudo-devices': ['cat < /dev/tcp/1.2.3.4/80', 'wc -l < /dev/udp/1.2.3.4/53', 'exec 3<>/dev/tcp/x/80', 'cat 0</dev/tcp/x/80'],
    'repository-supplied git configuration': [
      'git -c core.fsmonitor=id status', 'git -C ../other status', 'git --git-dir=x log', 'git --work-tree=/ status', 'git --exec-path=. log',
      'git diff', 'git show HEAD', 'git log -p', 'git log --ext-diff', 'git blame f', 'git st', 'git grep -O x', 'git config core.pager',
      'git --config-env=core.pager=X log', 'git -p log', 'git branch -D main',
    ],
    'redirections other than to /dev/null, here-strings, expansions, substitution': [
      'ls > out', 'ls 2> err.log', 'cat <<< hi', 'cat <<EOF\nhi\nEOF', 'echo $HOME', 'echo "$(id)"', 'cat <(id)', 'echo `id`', 'ls &', '(ls)', '{ ls; }', 'ls | sh',
      'FOO=1 ls', '/bin/ls', './ls', 'ls\tx\u001b]0;x\u0007', 'echo \u202eexe.sh',
    ],
  };

  for (const [name, commands] of Object.entries(classes)) {
    describe(name, () => {
      for (const command of commands) it(`${JSON.stringify(command)} is asked`, () => mustAsk(command).then(() => undefined));
    });
  }

  describe('a command too deep or broken for the grammar', () => {
    const nasty = ['$('.repeat(5000) + 'ls' + ')'.repeat(5000), '('.repeat(20000) + 'ls' + ')'.repeat(20000), 'echo "unterminated', 'ls )', 'ls |', "echo $'\\", 'if then fi', 'a'.repeat(200_000)];
    for (const command of nasty) {
      it(`${JSON.stringify(command.slice(0, 30))}… gets an outcome (asked), never a crash`, async () => {
        const request = await mustAsk(command);
        assert.ok(request.riskHints.some((h) => h.kind === 'unclear'), JSON.stringify(request.riskHints.slice(0, 3)));
      });
    }

    it('turns a failure inside the barrier into a refusal, not a thrown error', async () => {
      const h = harness(dir, { prompter: new Denier() });
      const hostile = {
        get command(): string {
          throw new Error('boom');
        },
      };
      const outcome = await h.barrier.check(call('bash', hostile));
      assert.equal(outcome.allowed, false);
      assert.equal(outcome.by, 'barrier_error');
      assert.match((outcome as { reason: string }).reason, /could not judge this call \(boom\)/);
    });
  });

  describe('catastrophic commands are refused whatever was pre-approved', () => {
    const catastrophic = [
      'sudo rm -rf /', 'rm -rf /', 'rm -fr /*', 'rm -r ~', 'rm -rf $HOME', 'rm -rf "$HOME"/', 'rm -rf /home/victim', 'rm --recursive --force /', 'find / -delete', 'find ~ -delete',
      'mkfs.ext4 /dev/sdb1', 'mkfs -t ext4 /dev/sdb', 'mke2fs /dev/sda1', 'wipefs -a /dev/sda', 'dd if=/dev/zero of=/dev/sda bs=1M', 'echo x > /dev/sda', 'cat img | tee /dev/nvme0n1',
      ':(){ :|:& };:', 'bomb(){ bomb|bomb& }; bomb', 'shutdown -h now', 'reboot', 'sudo poweroff', 'halt', 'systemctl reboot', 'init 0',
      'pepe config set agents.a.auto_approve "*"', 'npx pepe agent add x', 'echo "{}" > $PEPE_HOME/config.json', 'cp evil.json /home/victim/.pepe/config.json', 'rm -rf ~/.pepe/approvals',
      "sh -c 'rm -rf /'", 'eval "rm -rf /"', 'xargs rm -rf / < /dev/null', 'timeout 5 reboot',
    ];
    for (const command of catastrophic) {
      it(`${JSON.stringify(command)} is refused even with auto_approve "*", a bypass and an "always" grant`, async () => {
        const person = new Denier({ kind: 'allow_once' });
        const h = harness(dir, { prompter: person, catastrophes: HOME_CTX });
        h.barrier.grants.bypass('billing');
        h.barrier.grants.grantAny('billing', 'bash');
        const outcome = await h.barrier.check(call('bash', { command }, { config: { auto_approve: '*', trust_untrusted_content: true } }));
        assert.equal(outcome.allowed, false, JSON.stringify(outcome));
        assert.equal(outcome.by, 'catastrophic');
        assert.equal(person.asked.length, 0, 'refused before anyone is asked');
      });
    }

    it('gives a fork bomb a risk hint of its own', async () => {
      assert.ok(classifyShell(':(){ :|:& };:').hints.some((h) => h.kind === 'fork_bomb'));
    });

    it('leaves ordinary deletions to the person', async () => {
      const request = await mustAsk('rm -rf build');
      assert.deepEqual(request.risks, ['delete']);
    });
  });

  describe('grants are scoped to what the person saw', () => {
    it('"always" on a network call stores bash:network, which does not cover a delete', async () => {
      const person = new Denier({ kind: 'always' });
      const h = harness(dir, { prompter: person });
      const first = await h.barrier.check(call('bash', { command: 'curl https://example.com' }));
      assert.ok(first.allowed && first.risks.includes('network'));
      assert.deepEqual(h.persisted, [['billing', 'bash:network']]);
      // The same session: a network call is covered, a delete asks again.
      assert.equal((await h.barrier.check(call('bash', { command: 'curl https://example.org' }))).allowed, true);
      assert.equal(person.asked.length, 1);
      const denier = new Denier();
      const h2 = harness(dir, { prompter: denier, grants: h.barrier.grants });
      assert.equal((await h2.barrier.check(call('bash', { command: 'rm -rf build' }))).allowed, false);
      assert.equal(denier.asked.length, 1);
      // A later session reads the scoped entry from auto_approve.
      const later = harness(dir, { prompter: new Denier() });
      const net = await later.barrier.check(call('bash', { command: 'curl https://example.net' }, { config: { auto_approve: ['bash:network'] } }));
      assert.deepEqual(net, { allowed: true, by: 'auto_approve', entry: 'bash:network', risks: ['network'] });
      const del = await later.barrier.check(call('bash', { command: 'curl x && rm y' }, { config: { auto_approve: ['bash:network'] } }));
      assert.equal(del.allowed, false);
    });

    it('"this session, these risks" and "the rest of this task" are scoped the same way', async () => {
      for (const kind of ['allow_session_risks', 'allow_task'] as const) {
        const h = harness(dir, { prompter: new Denier({ kind }) });
        const run = newRunState();
        await h.barrier.check(call('bash', { command: 'curl https://x' }, { run }));
        const again = await h.barrier.check(call('bash', { command: 'curl https://y' }, { run }));
        assert.ok(again.allowed && again.by === (kind === 'allow_task' ? 'task_grant' : 'session_grant'), `${kind}: ${JSON.stringify(again)}`);
        const denier = new Denier();
        const h2 = harness(dir, { prompter: denier, grants: h.barrier.grants });
        assert.equal((await h2.barrier.check(call('bash', { command: 'rm x' }, { run }))).allowed, false, kind);
        assert.equal(denier.asked.length, 1);
      }
    });

    it('"the rest of this task" ends with the run', async () => {
      const h = harness(dir, { prompter: new Denier({ kind: 'allow_task' }) });
      await h.barrier.check(call('bash', { command: 'curl https://x' }));
      const denier = new Denier();
      const h2 = harness(dir, { prompter: denier, grants: h.barrier.grants });
      assert.equal((await h2.barrier.check(call('bash', { command: 'curl https://x' }, { run: newRunState() }))).allowed, false);
    });

    it('a bare tool name in existing config keeps meaning every call (but never a catastrophic one)', async () => {
      const h = harness(dir, { prompter: new Denier(), catastrophes: HOME_CTX });
      const rm = await h.barrier.check(call('bash', { command: 'rm -rf build' }, { config: { auto_approve: ['bash'] } }));
      assert.equal(rm.allowed, true);
      const bad = await h.barrier.check(call('bash', { command: 'sudo rm -rf /' }, { config: { auto_approve: ['bash'] } }));
      assert.equal(bad.by, 'catastrophic');
    });

    it('the session bypass stops the asking, is withdrawn by outside content, and never covers a catastrophe', async () => {
      const h = harness(dir, { prompter: new Denier({ kind: 'bypass_session' }) });
      const run = newRunState();
      await h.barrier.check(call('bash', { command: 'rm x' }, { run }));
      assert.equal((await h.barrier.check(call('write_file', { path: 'y' }, { run }))).by, 'bypass');
      markOutsideContent(run, 'web_search');
      const denier = new Denier();
      const h2 = harness(dir, { prompter: denier, grants: h.barrier.grants });
      assert.equal((await h2.barrier.check(call('bash', { command: 'rm x' }, { run }))).allowed, false);
      assert.equal(denier.asked.length, 1);
    });
  });

  describe('taint follows the data', () => {
    it("a tainted caller's callee starts tainted: its pre-approval asks", async () => {
      const caller = newRunState();
      markOutsideContent(caller, 'web_search');
      const callee = newRunState(caller);
      const person = new Denier();
      const h = harness(dir, { prompter: person });
      const outcome = await h.barrier.check(call('bash', { command: 'rm -rf build' }, { run: callee, config: { auto_approve: ['bash:delete'] } }));
      assert.equal(outcome.allowed, false);
      assert.equal(person.asked.length, 1);
      assert.ok(person.asked[0]!.why.some((w) => w.kind === 'outside_content'));
      // The harmless path is withdrawn too.
      const ls = await h.barrier.check(call('bash', { command: 'ls' }, { run: callee }));
      assert.equal(ls.allowed, false);
      // An untainted caller's callee keeps them.
      const clean = await h.barrier.check(call('bash', { command: 'ls' }, { run: newRunState(newRunState()) }));
      assert.deepEqual(clean, { allowed: true, by: 'free', risks: [] });
    });

    it('web_search asks once the run holds outside content or read files outside the workspace', async () => {
      const person = new Denier();
      const h = harness(dir, { prompter: person });
      const clean = await h.barrier.check(call('web_search', { query: 'x' }));
      assert.equal(clean.allowed, true);
      const run = newRunState();
      markOutsideContent(run, 'read_file /etc/hosts');
      assert.equal((await h.barrier.check(call('web_search', { query: 'secret' }, { run }))).allowed, false);
      const reader = newRunState();
      const outside: PathFact = { requested: '/etc/hosts', real: '/etc/hosts', access: 'read', inside: false, inPepeHome: false, viaLink: false };
      const allowOnce = harness(dir, { prompter: new Denier({ kind: 'allow_once' }) });
      assert.equal((await allowOnce.barrier.check(call('read_file', { path: '/etc/hosts' }, { run: reader, facts: { paths: [outside] } }))).allowed, true);
      assert.equal((await h.barrier.check(call('web_search', { query: 'secret' }, { run: reader }))).allowed, false);
      assert.equal(person.asked.length, 2);
    });

    it('reading outside the workspace asks with a person present and is refused and parked without one', async () => {
      const outside: PathFact = { requested: '../../.ssh/id_rsa', real: '/home/victim/.ssh/id_rsa', access: 'read', inside: false, inPepeHome: false, viaLink: false };
      const person = new Denier();
      const h = harness(dir, { prompter: person });
      assert.equal((await h.barrier.check(call('read_file', { path: '../../.ssh/id_rsa' }, { facts: { paths: [outside] } }))).allowed, false);
      assert.match(person.asked[0]!.whyText, /reads outside the workspace \(\/home\/victim\/\.ssh\/id_rsa\)/);
      const nobody = harness(dir);
      const parked = await nobody.barrier.check(call('list_dir', { path: '/etc' }, { facts: { paths: [{ ...outside, real: '/etc' }] } }));
      assert.equal(parked.by, 'no_person');
      assert.ok((parked as { pendingId?: string }).pendingId);
    });

    it('a write into Pepe\'s home is always asked, once at most, whatever was granted', async () => {
      const fact: PathFact = { requested: 'cfg.json', real: '/home/victim/.pepe/config.json', access: 'write', inside: true, inPepeHome: true, viaLink: true };
      const person = new Denier({ kind: 'always_any' });
      const h = harness(dir, { prompter: person });
      h.barrier.grants.bypass('billing');
      h.barrier.grants.grantAny('billing', 'write_file');
      const args = { path: 'cfg.json', content: '{}' };
      const first = await h.barrier.check(call('write_file', args, { config: { auto_approve: '*' }, facts: { paths: [fact] } }));
      assert.equal(person.asked.length, 1, 'asked despite auto_approve, bypass and a grant');
      assert.ok(person.asked[0]!.onceOnly);
      assert.match(person.asked[0]!.summary, /cfg\.json is a link: the write goes \/home\/victim\/\.pepe\/config\.json/);
      assert.ok(first.allowed && first.by === 'user' && first.decision.kind === 'allow_once', 'an "always" answer counts as once here');
      assert.deepEqual(h.persisted, [], 'nothing saved');
      await h.barrier.check(call('write_file', args, { config: { auto_approve: '*' }, facts: { paths: [fact] } }));
      assert.equal(person.asked.length, 2, 'asked again');
    });

    it('with the sandbox unconfined every command asks, harmless ones included, and says why', async () => {
      const person = new Denier();
      const h = harness(dir, { prompter: person });
      const outcome = await h.barrier.check(call('bash', { command: 'ls' }, { sandbox: { confined: false, reason: 'bubblewrap is not installed' } }));
      assert.equal(outcome.allowed, false);
      assert.match(person.asked[0]!.whyText, /not confined by a sandbox right now \(bubblewrap is not installed\)/);
      const confined = await h.barrier.check(call('bash', { command: 'ls' }, { sandbox: { confined: true } }));
      assert.deepEqual(confined, { allowed: true, by: 'free', risks: [] });
    });
  });

  describe('control characters never reach the person raw', () => {
    it('shows a command with hidden characters $\'…\'-quoted, with a hint', async () => {
      const request = await mustAsk('echo safe\r\u001b[2Krm -rf important \u202e');
      assert.ok(request.riskHints.some((h) => h.kind === 'hidden_characters'));
      assert.ok(!/[\r\u001b\u202e]/.test(request.summary), JSON.stringify(request.summary));
      assert.ok(!/[\r\u001b\u202e]/.test(request.whyText), JSON.stringify(request.whyText));
      assert.match(request.summary, /\$'echo safe\\r\\e\[2Krm -rf important \\u\{202e\}'/);
    });
  });

  it('every allowed outcome carries the risks, so the invoker can decide about the network', async () => {
    const h = harness(dir, { prompter: new Denier({ kind: 'allow_once' }) });
    const outcomes: BarrierOutcome[] = [
      await h.barrier.check(call('bash', { command: 'ls' })),
      await h.barrier.check(call('bash', { command: 'curl https://x' })),
      await h.barrier.check(call('read_file', { path: 'x' })),
    ];
    assert.deepEqual(outcomes.map((o) => (o.allowed ? o.risks : null)), [[], ['network'], []]);
  });
});
