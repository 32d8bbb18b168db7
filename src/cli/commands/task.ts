import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { visibleLine } from '../../core/display.js';
import type { Pepe } from '../../core/pepe.js';
import type { CommitIdentity, TaskRecord, TaskService, TaskView } from '../../core/tasks/index.js';
import type { CliContext } from '../context.js';
import { json, printListing, table } from '../format.js';
import { isTerminal, useStreams } from '../stdio.js';
import { createInterface } from 'node:readline/promises';
import { loadCliExtras } from '../core-loader.js';

/**
 * `pepe task start|list|show|diff|commit|merge|discard|stop` (issue 28): background tasks, each an
 * agent's run in a git worktree of its own on a new branch, with a sandbox whose only writable
 * place is that worktree. `start` returns at once; the run goes on in a detached `pepe` process
 * (`task _run`) that writes its progress into the task's record.
 */
export function registerTaskCommands(program: Command, ctx: CliContext): void {
  const task = program
    .command('task')
    .description('background tasks: an agent works in a git worktree of its own on a new branch, then you review it, commit it for a pull request, merge or discard it')
    .addHelpText('after', `
A task's worktree and record live in the tasks folder: $PEPE_TASKS_HOME, else
$XDG_DATA_HOME/pepe/tasks, else ~/.local/share/pepe/tasks (macOS: ~/Library/Application
Support/pepe/tasks). Its commands can write only its worktree. Calls that need approval wait in
"pepe approvals list" with the task named; the task goes on once they are decided.
commit and merge make their commits by your git identity (see pepe task commit --help).
Statuses: starting, running, waiting (for approval), done, failed, stopped.`);

  const service = async (pepe?: Pepe): Promise<TaskService> => {
    const core = await loadCliExtras();
    const p = pepe ?? (await ctx.pepe());
    return new core.TaskService({ dataHome: core.tasksHome(process.env), pepeHome: p.paths.home, env: process.env, maxRunning: () => p.config.limits?.max_tasks ?? core.DEFAULT_MAX_TASKS, usage: () => p.usageRecords() });
  };

  task
    .command('start')
    .description('start AGENT on TEXT in a new worktree and branch from HEAD (or --base); returns at once')
    .argument('<agent>')
    .argument('<text>', 'what the agent is to do')
    .option('--base <ref>', 'the branch, tag or commit to start from (default: HEAD)')
    .option('--json', 'print the task as JSON')
    .action(async (agent: string, text: string, opts: { base?: string; json?: boolean }) => {
      const pepe = await ctx.pepe({ workspace: process.cwd() });
      if (!Object.hasOwn(pepe.config.agents ?? {}, agent)) throw new UsageError(`unknown agent "${agent}" (pepe agent list shows them)`);
      const tasks = await service(pepe);
      const record = await tasks.create({ agent, text, cwd: process.cwd(), ...(opts.base !== undefined ? { base: opts.base } : {}) });
      // The process records its own id and progress (one writer per field: no race with it here).
      startRunner(record, tasks, program.opts<{ home?: string }>().home);
      const started = record;
      if (opts.json) return ctx.out(json(started));
      ctx.out(`started task ${started.id} (${visibleLine(agent)})\n  branch  ${started.branch}\n  folder  ${started.worktree}\n(pepe task show ${started.id.slice(0, 6)} follows it)`);
    });

  task
    .command('_run', { hidden: true })
    .argument('<id>')
    .action(async (id: string) => {
      const core = await loadCliExtras();
      const store = new core.TaskStore(core.tasksHome(process.env));
      const record = store.read(id);
      if (!record) throw new UsageError(`no task ${id}`);
      // The task's own core: its worktree is the workspace (the sandbox's only writable root), nobody is there to ask.
      const pepe = await ctx.pepe({ workspace: record.worktree, prompter: null });
      const ac = new AbortController();
      const stop = () => ac.abort();
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
      try {
        const end = await core.runTask(id, {
          store,
          signal: ac.signal,
          turn: (o) => pepe.run({ ...o, personPresent: false, metadata: { channel: 'task', task: id } }),
          // Pending calls, and approved ones still running in the process that approved them.
          pendingOf: async (sessionId) => core.awaitedCalls(await pepe.approvalList({ includeResolved: true }), sessionId, () => pepe.sessionLoad(record.agent, sessionId).state),
        });
        process.exitCode = end.status === 'done' ? 0 : 1;
      } finally {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
      }
    });

  task
    .command('list')
    .description('every task: id, agent, status, branch, folder, elapsed time and cost')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const list = (await service()).views();
      printListing((text) => ctx.out(text), opts.json, list, {
        empty: 'no tasks (pepe task start AGENT "text" starts one)',
        table: (items) => table(['ID', 'AGENT', 'STATUS', 'BRANCH', 'FOLDER', 'ELAPSED', 'COST'], items.map((t) => [t.id, visibleLine(t.agent), statusWord(t), t.branch, t.worktree, elapsed(t.elapsedMs), usd(t.costUsd)])),
      });
    });

  task
    .command('show')
    .description("one task: its status, what it was asked, its answer so far and the files it changed")
    .argument('<id>', 'the id, or a unique prefix')
    .option('--json', 'machine-readable output')
    .action(async (id: string, opts: { json?: boolean }) => {
      const tasks = await service();
      const t = tasks.viewOf(id);
      const { diff } = await tasks.diff(t.id, { patch: false });
      if (opts.json) return ctx.out(json({ ...t, files: diff.files }));
      const lines = [
        `task ${t.id}: ${statusWord(t)}`,
        `  agent    ${visibleLine(t.agent)}`,
        `  asked    ${visibleLine(t.text)}`,
        `  base     ${visibleLine(t.base)} (${t.baseCommit.slice(0, 12)})`,
        `  branch   ${t.branch}`,
        `  folder   ${t.worktree}`,
        `  from     ${t.checkout}`,
        `  elapsed  ${elapsed(t.elapsedMs)}, ${t.turns} turn${t.turns === 1 ? '' : 's'}, cost ${usd(t.costUsd)}`,
      ];
      if (t.sessionId) lines.push(`  session  ${t.sessionId} (pepe sessions show ${t.sessionId})`);
      if (t.waitingFor?.length) lines.push(`  waiting  for ${t.waitingFor.join(', ')} (pepe approvals list)`);
      if (t.error) lines.push(`  error    ${visibleLine(t.error)}`);
      if (t.merged) lines.push(`  merged   ${t.merged.how} at ${t.merged.commit.slice(0, 12)}`);
      lines.push(diff.files.length ? `changed files:\n${diff.files.map((f) => `  ${f.status.padEnd(2)} ${visibleLine(f.path)}`).join('\n')}` : 'no changes yet');
      if (t.summary) lines.push(`last answer:\n${t.summary.split('\n').map((l) => `  ${visibleLine(l)}`).join('\n')}`);
      ctx.out(lines.join('\n'));
    });

  task
    .command('diff')
    .description("the task's changes against its base, as a unified diff (new files included)")
    .argument('<id>', 'the id, or a unique prefix')
    .option('--stat', 'only a summary of the files')
    .action(async (id: string, opts: { stat?: boolean }) => {
      const { diff } = await (await service()).diff(id, { patch: !opts.stat });
      ctx.out((opts.stat ? diff.stat : diff.patch) || 'no changes');
    });

  task
    .command('merge')
    .description("commit the task's worktree onto its branch and merge it into the checkout's branch (fast-forward, else a merge commit); conflicts are reported and nothing changes")
    .argument('<id>', 'the id, or a unique prefix')
    .option('--yes', 'do not ask (nor does it without a terminal)')
    .action(async (id: string, opts: { yes?: boolean }) => {
      const tasks = await service();
      const t = tasks.get(id);
      if (!(await confirm(opts.yes, `merge task ${t.id} (${t.branch}) into the branch checked out in ${t.checkout}? [y/N] `))) return void ctx.out('not merged');
      const { outcome, identity } = await tasks.merge(t.id);
      switch (outcome.kind) {
        case 'merged':
          return void ctx.out(`merged task ${t.id} into ${t.checkout} (${outcome.how === 'fast-forward' ? 'fast-forward' : 'a merge commit'}, now at ${outcome.commit.slice(0, 12)}, ${committedBy(identity)}); pepe task discard ${t.id.slice(0, 6)} removes its worktree and branch${fallbackNote(identity)}`);
        case 'nothing':
          return void ctx.out(`task ${t.id} has nothing the checkout does not have already`);
        case 'conflict':
          process.exitCode = 1;
          return void ctx.out(`not merged: task ${t.id} conflicts with the checkout in ${outcome.files.length} file${outcome.files.length === 1 ? '' : 's'}:\n${outcome.files.map((f) => `  ${visibleLine(f)}`).join('\n')}\nNothing was changed. Its branch ${t.branch} holds its work (committed) for you to merge by hand.`);
        case 'refused':
          process.exitCode = 1;
          return void ctx.out(`not merged: ${visibleLine(outcome.why)}\nNothing was changed; its branch ${t.branch} holds its work.`);
      }
    });

  task
    .command('commit')
    .description("commit the task's worktree onto its branch, by your git identity, so the branch can be pushed for a pull request")
    .argument('<id>', 'the id, or a unique prefix')
    .option('-m, --message <text>', "the commit message (default: the task's text, and which task and agent it was)")
    .addHelpText('after', `
The commit is on the task's branch (pepe/task-<id>) in your repository; your checkout is not
touched. Push it with: git push <remote> pepe/task-<id>  (or under a name of your own:
git push <remote> pepe/task-<id>:<name>). The author is your git identity (GIT_AUTHOR_NAME and
GIT_AUTHOR_EMAIL, else user.name and user.email of the repository, else of your global git
configuration); when none is set, "Pepe task <tasks@pepe.invalid>", and it says so.`)
    .action(async (id: string, opts: { message?: string }) => {
      const tasks = await service();
      const { task: t, commit, made, identity } = await tasks.commit(id, opts.message !== undefined ? { message: opts.message } : {});
      const head = made ? `committed task ${t.id}'s work on its branch ${t.branch} (${commit.slice(0, 12)}, ${committedBy(identity)})` : `task ${t.id} has nothing new to commit; its branch ${t.branch} is at ${commit.slice(0, 12)}`;
      ctx.out(`${head}\npush it for a pull request with: git push <remote> ${t.branch}${made ? fallbackNote(identity) : ''}`);
    });

  task
    .command('discard')
    .description("remove the task's worktree, branch and record")
    .argument('<id>', 'the id, or a unique prefix')
    .option('--yes', 'do not ask (nor does it without a terminal)')
    .action(async (id: string, opts: { yes?: boolean }) => {
      const tasks = await service();
      const t = tasks.get(id);
      const unmerged = t.merged ? '' : ' Its changes were not merged and will be lost.';
      if (!(await confirm(opts.yes, `discard task ${t.id}: remove ${t.worktree} and the branch ${t.branch}?${unmerged} [y/N] `))) return void ctx.out('not discarded');
      await tasks.discard(t.id);
      ctx.out(`discarded task ${t.id} (its worktree and branch ${t.branch} are removed)`);
    });

  task
    .command('stop')
    .description('stop a running task: its turn ends cleanly, its worktree stays for review')
    .argument('<id>', 'the id, or a unique prefix')
    .action(async (id: string) => {
      const t = (await service()).stop(id);
      ctx.out(`stopping task ${t.id}; its worktree ${t.worktree} stays for review`);
    });
}

/** Starts `pepe task _run ID` detached from this process (it outlives it), its output into the task's log. */
function startRunner(record: TaskRecord, tasks: TaskService, home: string | undefined): number {
  const log = openSync(tasks.store.logFile(record.id), 'a', 0o600);
  try {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...(home ? ['--home', home] : []), 'task', '_run', record.id], {
      cwd: record.worktree,
      detached: true,
      stdio: ['ignore', log, log],
      env: process.env,
    });
    child.unref();
    if (!child.pid) throw new UsageError(`the process for task ${record.id} did not start`);
    return child.pid;
  } finally {
    closeSync(log);
  }
}

async function confirm(yes: boolean | undefined, question: string): Promise<boolean> {
  if (yes || !isTerminal(0)) return true;
  useStreams(); // readline writes to process.stderr itself (stdio.ts)
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

function committedBy(identity: CommitIdentity): string {
  return `by ${visibleLine(identity.name)} <${visibleLine(identity.email)}>`;
}

/** Said when no git identity of the person's was found, with how to set one. */
function fallbackNote(identity: CommitIdentity): string {
  return identity.from === 'fallback' ? '\nno git identity is set (user.name and user.email), so the commit is by "Pepe task"; set yours with: git config --global user.name "Your Name" && git config --global user.email you@example.com' : '';
}

function statusWord(t: TaskView): string {
  return t.status === 'waiting' ? 'waiting for approval' : t.merged ? `${t.status}, merged` : t.status;
}

export function elapsed(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

function usd(n: number): string {
  return n === 0 ? '$0' : n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}
