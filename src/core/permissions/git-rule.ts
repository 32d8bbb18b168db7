import { hasOption, operands, texts, type Rule } from './command-args.js';

/**
 * git: read-only subcommands are harmless; push/pull/fetch/clone use the network; clean/rm delete;
 * the rest change the repository, and some of them discard work. `-c` and friends can make git run
 * any command, and a subcommand the barrier does not know may be an alias for anything.
 */

const GIT_GLOBAL_WITH_VALUE = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix'];
const GIT_READ = new Set([
  'status', 'log', 'diff', 'show', 'blame', 'annotate', 'shortlog', 'describe', 'rev-parse', 'rev-list', 'ls-files', 'ls-tree',
  'cat-file', 'grep', 'help', 'version', 'whatchanged', 'count-objects', 'fsck', 'check-ignore', 'check-attr', 'name-rev',
  'merge-base', 'for-each-ref', 'show-ref', 'show-branch', 'diff-tree', 'diff-files', 'diff-index', 'var', 'verify-commit',
  'verify-tag', 'cherry', 'range-diff',
]);
const GIT_NETWORK = new Set(['push', 'pull', 'fetch', 'clone', 'ls-remote', 'send-email', 'svn', 'p4']);

export const git: Rule = (cmd, ctx) => {
  const args = cmd.args;
  // Global options come before the subcommand; -c and --config-env can make git run any command.
  let i = 0;
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (!t.startsWith('-')) break;
    if (t === '-c' || t === '--config-env' || t.startsWith('--config-env=') || (t.startsWith('--exec-path=') && t.length > 12)) {
      ctx.hint('inline_eval', cmd.raw, 'git configuration given on the command line can run commands');
    }
    if (GIT_GLOBAL_WITH_VALUE.includes(t)) i++;
  }
  const sub = args[i]?.text ?? '';
  const rest = args.slice(i + 1);
  const restTexts = texts(rest);
  const positional = operands(rest);
  if (sub === '' || sub === '--version' || sub === '--help') return;
  if (GIT_NETWORK.has(sub)) {
    ctx.hint('network', cmd.raw);
    if (sub === 'push' && (hasOption(rest, 'fd', ['--force', '--force-with-lease', '--delete', '--mirror', '--prune']) || restTexts.some((t) => t.startsWith(':') || t.startsWith('+')))) {
      ctx.hint('delete', cmd.raw, 'may delete or overwrite remote history');
    }
    if (sub !== 'ls-remote' && sub !== 'send-email') ctx.hint('write', cmd.raw, 'changes the repository');
    return;
  }
  if (sub === 'clean' || sub === 'rm') return ctx.hint('delete', cmd.raw);
  if (GIT_READ.has(sub)) {
    if (restTexts.some((t) => t.startsWith('--output'))) ctx.hint('write', cmd.raw, 'writes its output to a file');
    if (restTexts.some((t) => t === '--ext-diff' || t === '-O' || t.startsWith('--open-files-in-pager') || t.startsWith('-O'))) {
      ctx.hint('inline_eval', cmd.raw, 'runs an external program');
    }
    return;
  }
  const readOnlyForm =
    (sub === 'branch' && positional.length === 0 && !hasOption(rest, 'dDmMcC', ['--delete', '--move', '--copy', '--set-upstream-to', '--unset-upstream', '--edit-description'])) ||
    (sub === 'tag' && (positional.length === 0 || hasOption(rest, 'l', ['--list'])) && !hasOption(rest, 'dsafu', ['--delete'])) ||
    (sub === 'remote' && (positional.length === 0 || ['show', 'get-url'].includes(positional[0]!.text))) ||
    (sub === 'stash' && ['list', 'show'].includes(positional[0]?.text ?? '')) ||
    (sub === 'reflog' && !['expire', 'delete'].includes(positional[0]?.text ?? '')) ||
    (sub === 'worktree' && positional[0]?.text === 'list') ||
    (sub === 'config' && hasOption(rest, 'l', ['--get', '--get-all', '--get-regexp', '--list', '--show-origin', '--get-urlmatch'])) ||
    (sub === 'config' && ['get', 'list'].includes(positional[0]?.text ?? '')) ||
    (sub === 'submodule' && ['status', 'summary'].includes(positional[0]?.text ?? 'status') && positional.length <= 1) ||
    (sub === 'symbolic-ref' && positional.length <= 1 && !hasOption(rest, 'd', ['--delete']));
  if (readOnlyForm) return;
  const KNOWN_WRITES = ['add', 'commit', 'checkout', 'switch', 'restore', 'reset', 'merge', 'rebase', 'cherry-pick', 'revert', 'am', 'apply', 'mv', 'stash', 'tag', 'branch', 'init', 'gc', 'prune', 'notes', 'bisect', 'worktree', 'config', 'remote', 'reflog', 'submodule', 'symbolic-ref', 'update-ref', 'update-index', 'filter-branch', 'replace', 'commit-tree', 'write-tree', 'read-tree', 'repack', 'pack-refs', 'maintenance', 'sparse-checkout', 'lfs', 'format-patch', 'archive', 'bundle', 'mergetool', 'difftool', 'rerere', 'hash-object', 'mktag', 'mktree'];
  if (!KNOWN_WRITES.includes(sub)) return ctx.hint('unknown_command', cmd.raw, `"git ${sub}" is not a git command the barrier knows (it may be an alias)`);
  ctx.hint('write', cmd.raw, 'changes the repository or working tree');
  if (['mergetool', 'difftool', 'bisect', 'filter-branch', 'rebase'].includes(sub) && restTexts.some((t) => ['run', '--exec', '-x', '--tool', '-t', '--extcmd', '-x'].some((o) => t === o || t.startsWith(o + '=')))) {
    ctx.hint('inline_eval', cmd.raw, 'runs a command');
  }
  const discards =
    (sub === 'reset' && restTexts.includes('--hard')) ||
    (sub === 'checkout' && (restTexts.includes('--') || restTexts.includes('.') || hasOption(rest, 'f', ['--force']))) ||
    sub === 'restore' ||
    (sub === 'stash' && ['drop', 'clear'].includes(positional[0]?.text ?? '')) ||
    (sub === 'branch' && hasOption(rest, 'dD', ['--delete'])) ||
    (sub === 'tag' && hasOption(rest, 'd', ['--delete'])) ||
    (sub === 'worktree' && positional[0]?.text === 'remove') ||
    (sub === 'reflog' && ['expire', 'delete'].includes(positional[0]?.text ?? '')) ||
    sub === 'prune' ||
    sub === 'filter-branch';
  if (discards) ctx.hint('delete', cmd.raw, 'discards work or history');
};
