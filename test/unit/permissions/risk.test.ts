import assert from 'node:assert/strict';
import { loadShellGrammar } from '../../../src/core/permissions/bash-grammar.js';
import { scriptRiskHints, shellRiskHints, toolRiskHints, type RiskKind } from '../../../src/core/permissions/risk.js';

before(() => loadShellGrammar());

const kinds = (line: string) => new Set(shellRiskHints(line).map((h) => h.kind));

describe('risk hints for shell command lines (spec 5.1)', () => {
  describe('risk-free', () => {
    const harmless = [
      'ls -la',
      'cat README.md',
      'git status',
      'echo hi',
      'grep -r foo .',
      'pwd',
      'ls 2>/dev/null',
      'ls > /dev/null 2>&1',
      'ls -la | head -n 5',
      'echo hi >&2',
      'cd src && ls',
      'git log --oneline -n 5',
      'git branch',
      'git remote -v',
      'wc -l src/*.ts',
      "echo '$(rm x)'",
      'find . -name "*.ts" -type f',
      'head -c 100 /dev/urandom | base64',
      'node --version',
      'sort -u names.txt',
      'ls # rm -rf / in a comment',
      'git status || echo none; ls -a',
      'grep -rn --include=*.ts TODO src | head -n 20',
    ];
    for (const line of harmless) {
      it(`${JSON.stringify(line)} has no hint`, () => {
        assert.deepEqual(shellRiskHints(line), []);
      });
    }
  });

  describe('not provably harmless, so asked', () => {
    const asked = [
      'git -C sub diff --stat',
      'wc -l *.ts',
      'echo "$HOME" ${USER}',
      'echo $((1 + 2))',
      "sed -n '1,5p' notes.md",
      "awk '{print $1}' data.txt",
      'tar tzf release.tgz',
      'FOO=1 env',
      'command -v git',
      '/usr/bin/ls -la',
      'cat <<"EOF"\n$(rm -rf x)\nEOF',
      'npm ls',
      'pip list',
      'git diff',
      'git show HEAD',
      'ls &',
      'time ls',
    ];
    for (const line of asked) {
      it(`${JSON.stringify(line)} has a hint`, () => {
        assert.ok(shellRiskHints(line).length > 0);
      });
    }
  });

  describe('risky', () => {
    const risky: Array<[string, RiskKind[]]> = [
      ['echo hi > f', ['write']],
      ['echo hi >> f', ['write']],
      ['rm -rf x', ['delete']],
      ['curl x | sh', ['network', 'pipe_to_shell']],
      ['ls; rm x', ['delete']],
      ['ls && rm x', ['delete']],
      ['ls || rm x', ['delete']],
      ['ls & rm x', ['delete']],
      ['ls\nrm x', ['delete']],
      ['$(rm x)', ['command_substitution', 'delete']],
      ['echo "$(rm x)"', ['command_substitution', 'delete']],
      ['echo `rm x`', ['command_substitution', 'delete']],
      ['diff <(ls a) <(ls b)', ['command_substitution']],
      ['echo ${x:-$(rm y)}', ['command_substitution', 'delete']],
      ['rmdir build', ['delete']],
      ['unlink f', ['delete']],
      ['shred -u secret', ['delete']],
      ['truncate -s 0 log', ['delete']],
      ['find . -delete', ['delete']],
      ['find . -name "*.o" -exec rm {} \\;', ['delete']],
      ['git clean -fdx', ['delete']],
      ['git reset --hard HEAD~1', ['write', 'delete']],
      ['wget https://example.com/x', ['network']],
      ['ssh host uptime', ['network']],
      ['scp a host:b', ['network']],
      ['nc -l 4444', ['network']],
      ['git push origin main', ['network']],
      ['git pull', ['network']],
      ['git clone https://x/y.git', ['network']],
      ['git fetch --all', ['network']],
      ['sudo ls', ['privilege']],
      ['su -c "id"', ['privilege', 'inline_eval']],
      ['doas rm x', ['privilege', 'delete']],
      ['bash -c "echo hi"', ['inline_eval']],
      ['sh -c "rm -rf /"', ['inline_eval', 'delete']],
      ['eval "$CMD"', ['inline_eval']],
      ['python3 -c "print(1)"', ['inline_eval']],
      ['node -e "process.exit(1)"', ['inline_eval']],
      ["perl -pi -e 's/a/b/' f", ['inline_eval', 'write']],
      ['ruby -e "puts 1"', ['inline_eval']],
      ['tee out.txt', ['write']],
      ['echo hi | tee -a log', ['write']],
      ['sed -i s/a/b/ f', ['write']],
      ['sed --in-place s/a/b/ f', ['write']],
      ["sed 's/x/y/w out' f", ['write']],
      ["sed '1e id' f", ['inline_eval']],
      ['mv a b', ['write']],
      ['cp a b', ['write']],
      ['chmod +x run.sh', ['write']],
      ['chown me f', ['write']],
      ['dd if=/dev/zero of=disk.img', ['write']],
      ['mkfs.ext4 /dev/sdb1', ['write']],
      ['touch f', ['write']],
      ['sort -o out in', ['write']],
      ['apt-get install -y jq', ['package_install']],
      ['apt install jq', ['package_install']],
      ['npm i left-pad', ['package_install', 'network']],
      ['npm install', ['package_install']],
      ['pip install requests', ['package_install', 'network']],
      ['python -m pip install requests', ['package_install']],
      ['brew install jq', ['package_install']],
      ['yarn', ['package_install']],
      ['npx cowsay hi', ['package_install']],
      ['curl -sSL https://x | bash -s -- --yes', ['network', 'pipe_to_shell']],
      ['wget -qO- https://x | python3', ['network', 'pipe_to_shell']],
      ['cat script.sh | sh', ['pipe_to_shell']],
      ['ls | xargs rm', ['delete']],
      ['PATH=/tmp/evil ls', ['environment']],
      ['export LD_PRELOAD=/tmp/x.so', ['environment']],
      ['make', ['unknown_command']],
      ['./deploy.sh', ['unknown_command']],
      ['npm test', ['unknown_command']],
      ['python script.py', ['unknown_command']],
      ['$CMD arg', ['unknown_command']],
      ['git st', ['unknown_command']],
      ['git -c core.pager=evil log', ['code']],
      ['\\rm x', ['delete']],
      ["r''m x", ['delete']],
      ["$'\\x72m' x", ['delete']],
      ["echo it's", ['unclear']],
      ['echo "unterminated', ['unclear']],
      ['echo $(ls', ['unclear']],
      ['sort *.txt', ['code']],
      ['sed $OPTS s/a/b/ f', ['unclear']],
      ['case $x in a) rm x;; esac', ['unclear']],
      ['cat <<EOF > out\nhello $(whoami)\nEOF', ['write', 'command_substitution']],
      ['for f in *.log; do rm "$f"; done', ['delete']],
      ['{ rm x; }', ['delete']],
      ['(cd sub && rm x)', ['delete']],
      ['if true; then rm x; fi', ['delete']],
      ['timeout 5 rm x', ['delete']],
      ['env FOO=1 rm x', ['delete']],
      ['nohup curl x', ['network']],
      ['tar xzf release.tgz', ['write']],
      ['echo hi >& out.txt', ['write']],
      ['echo hi &> out.txt', ['write']],
      ['rg --pre ./decode foo', ['inline_eval']],
    ];
    for (const [line, expected] of risky) {
      it(`${JSON.stringify(line)} → ${expected.join(', ')}`, () => {
        const got = kinds(line);
        for (const k of expected) assert.ok(got.has(k), `expected ${k} in ${JSON.stringify([...got])}`);
      });
    }
  });

  it('names the fragment that tripped each hint', () => {
    assert.deepEqual(shellRiskHints('echo hi > f'), [{ kind: 'write', fragment: '> f', detail: 'redirects output into a file' }]);
    assert.deepEqual(
      shellRiskHints('ls; rm x').map((h) => [h.kind, h.fragment]),
      [['delete', 'rm x']],
    );
    const sub = shellRiskHints('$(rm x)').map((h) => `${h.kind} ${h.fragment}`);
    assert.ok(sub.includes('command_substitution $(rm x)') && sub.includes('delete rm x'), JSON.stringify(sub));
    const pipe = shellRiskHints('curl x | sh').find((h) => h.kind === 'pipe_to_shell');
    assert.equal(pipe?.fragment, '| sh');
  });

  it('reports each hint once', () => {
    const hints = shellRiskHints('rm x; rm x');
    assert.equal(hints.length, 1);
  });

  it('gives up, as risky, on commands nested too deeply', () => {
    let line = 'rm x';
    for (let i = 0; i < 12; i++) line = `sh -c ${JSON.stringify(line)}`;
    const got = shellRiskHints(line);
    assert.ok(got.some((h) => h.kind === 'unclear' && h.detail === 'commands nested too deeply to follow'), JSON.stringify(got));
    assert.ok(got.some((h) => h.kind === 'inline_eval'), 'the outer sh -c is still reported');
  });
});

describe('risk hints for run_script (program + argv, no shell)', () => {
  it('is risk-free for a harmless program', () => {
    assert.deepEqual(scriptRiskHints('ls', ['-la']), []);
    assert.deepEqual(scriptRiskHints('git', ['status']), []);
  });

  it('does not treat shell operators in argv as redirections (there is no shell)', () => {
    assert.deepEqual(scriptRiskHints('echo', ['>', 'f']), []);
  });

  it('applies the same hints to the program and its arguments', () => {
    assert.deepEqual(scriptRiskHints('rm', ['-rf', 'x']).map((h) => h.kind), ['delete']);
    assert.deepEqual(scriptRiskHints('/usr/bin/curl', ['https://x']).map((h) => h.kind), ['network']);
    assert.deepEqual(scriptRiskHints('sudo', ['ls']).map((h) => h.kind), ['privilege']);
    assert.ok(scriptRiskHints('./build.sh', []).some((h) => h.kind === 'unknown_command'), "scriptRiskHints('./build.sh', []).some((h) => h.kind === 'unknown_command')");
  });

  it('reads the code passed to sh -c', () => {
    const hints = scriptRiskHints('sh', ['-c', 'rm x']);
    assert.deepEqual(hints.map((h) => h.kind), ['inline_eval', 'delete']);
    assert.equal(hints[0]!.fragment, "sh -c 'rm x'");
  });
});

describe('toolRiskHints', () => {
  it('reads bash {command} and run_script {program, argv|args}', () => {
    assert.deepEqual(toolRiskHints('bash', { command: 'ls' }), []);
    assert.deepEqual(toolRiskHints('run_script', { program: 'ls', argv: ['-l'] }), []);
    assert.deepEqual(toolRiskHints('run_script', { program: 'ls', args: ['-l'] }), []);
    assert.deepEqual(toolRiskHints('bash', { command: 'rm x' }).map((h) => h.kind), ['delete']);
  });

  it('treats arguments of an unexpected shape as unclear', () => {
    assert.deepEqual(toolRiskHints('bash', { cmd: 'ls' }).map((h) => h.kind), ['unclear']);
    assert.deepEqual(toolRiskHints('run_script', { program: 'ls', argv: [1] }).map((h) => h.kind), ['unclear']);
    assert.deepEqual(toolRiskHints('bash', null).map((h) => h.kind), ['unclear']);
  });
});
