import { sep } from 'node:path';
import type { Command } from 'commander';
import { inertJson, visibleLine } from '../../core/display.js';
import { describeGrant, riskKindsOf, scopedEntry } from '../../core/permissions/grant-scope.js';
import { json, table } from '../format.js';
import type { CliContext } from '../context.js';
import { loadCliExtras } from '../core-loader.js';

/** The background task (issue 28) whose worktree a parked call was made in: its id, or null. */
async function taskNamer(): Promise<(call: { workspace?: string; cwd: string }) => string | null> {
  const core = await loadCliExtras();
  let tasks: { id: string; worktree: string }[] = [];
  try {
    tasks = new core.TaskStore(core.tasksHome(process.env)).list();
  } catch {
    // No tasks folder to read: no call names a task.
  }
  return (call) => {
    const place = call.workspace ?? call.cwd;
    return tasks.find((t) => place === t.worktree || place.startsWith(`${t.worktree}${sep}`))?.id ?? null;
  };
}

export function registerApprovalCommands(program: Command, ctx: CliContext): void {
  const approvals = program.command('approvals').description('calls refused because nobody was there to ask');

  approvals
    .command('list')
    .description('pending approvals (expire after 30 minutes)')
    .option('--all', 'include expired, approved and denied ones')
    .option('--json', 'machine-readable output')
    .action(async (opts: { all?: boolean; json?: boolean }) => {
      const pepe = await ctx.pepe();
      const list = await pepe.approvalList({ includeExpired: !!opts.all, includeResolved: !!opts.all });
      const taskOf = await taskNamer();
      if (opts.json) return ctx.out(inertJson(json(list.map((a) => ({ ...a, task: taskOf(a) })))));
      if (!list.length) return ctx.out('no pending approvals');
      // Calls from background tasks name their task; the column is there only when one does.
      const withTask = list.some((a) => taskOf(a) !== null);
      const row = (a: (typeof list)[number]) => [a.id, ...(withTask ? [taskOf(a) ?? '-'] : []), a.chain.map(visibleLine).join(' → '), visibleLine(a.tool), visibleLine(callText(a.args)), a.status, a.expiresAt.replace('T', ' ').slice(0, 19)];
      ctx.out(table(['ID', ...(withTask ? ['TASK'] : []), 'AGENT', 'TOOL', 'CALL', 'STATUS', 'EXPIRES'], list.map(row)));
    });

  approvals
    .command('approve')
    .description("approve a parked call and run it now, in its session and directory; the agent is told at its next turn")
    .argument('<id>', 'the id, or a unique prefix')
    .option('--always', "also add the tool, for the risks shown with this call (e.g. bash:network), to the agent's auto_approve")
    .action(async (id: string, opts: { always?: boolean }) => {
      const pepe = await ctx.pepe();
      const outcome = await pepe.approveNow(id, { always: !!opts.always });
      const a = outcome.call;
      const task = (await taskNamer())(a);
      const how = outcome.ran ? (outcome.isError ? 'it ran and failed' : 'it ran') : 'it was not run';
      ctx.out(`approved ${a.id} (${task ? `task ${task}, ` : ''}${a.agent}: ${visibleLine(a.tool)}); ${how}:`);
      // The result is model-influenced text: shown inert, never as terminal control sequences.
      ctx.out(outcome.content.split('\n').map((l) => `  ${visibleLine(l)}`).join('\n'));
      if (opts.always) {
        const entry = scopedEntry(a.tool, riskKindsOf(a.riskHints), a.programs);
        ctx.out(`auto_approve of ${a.agent} now holds ${visibleLine(entry)} (merged into the tool's entry if it had one), which allows ${visibleLine(describeGrant(entry))}`);
      }
      if (task) ctx.out(`task ${task} goes on once none of its calls wait (pepe task show ${task})`);
      else if (a.sessionId) ctx.out(`${a.agent} is told at its next turn in session ${a.sessionId} (pepe run ${a.agent} "…" --session ${a.sessionId})`);
      if (outcome.ran && outcome.isError) process.exitCode = 1;
    });

  approvals
    .command('grants')
    .description("what each agent's saved approvals (auto_approve) allow without asking, one line per entry (pepe grants list shows these with everything else that lets a call run unasked, and revokes them)")
    .argument('[agent]', 'only this agent')
    .option('--json', 'machine-readable output')
    .action(async (agent: string | undefined, opts: { json?: boolean }) => {
      const pepe = await ctx.pepe();
      const rows: { agent: string; entry: string; covers: string }[] = [];
      for (const [name, cfg] of Object.entries(pepe.config.agents ?? {})) {
        if (agent !== undefined && name !== agent) continue;
        const list = cfg.auto_approve === undefined ? [] : cfg.auto_approve === '*' ? ['*'] : cfg.auto_approve;
        for (const entry of list) rows.push({ agent: name, entry, covers: describeGrant(entry) });
      }
      if (opts.json) return ctx.out(inertJson(json(rows)));
      if (!rows.length) return ctx.out(agent === undefined ? 'no saved approvals' : `no saved approvals for ${visibleLine(agent)}`);
      ctx.out(table(['AGENT', 'ENTRY', 'ALLOWS'], rows.map((r) => [visibleLine(r.agent), visibleLine(r.entry), visibleLine(r.covers)])));
    });

  approvals
    .command('deny')
    .description('deny a parked call; the agent is told in its next turn')
    .argument('<id>')
    .option('--reason <text>', 'told to the agent')
    .action(async (id: string, opts: { reason?: string }) => {
      const pepe = await ctx.pepe();
      const a = await pepe.approvalDeny(id, opts.reason ? { reason: opts.reason } : {});
      ctx.out(`denied ${a.id} (${a.agent}: ${visibleLine(a.tool)})`);
    });
}

function callText(args: unknown): string {
  const a = args as { command?: unknown; program?: unknown; args?: unknown; path?: unknown };
  if (typeof a?.command === 'string') return a.command;
  if (typeof a?.program === 'string') return [a.program, ...(Array.isArray(a.args) ? a.args : [])].map(String).join(' ');
  if (typeof a?.path === 'string') return a.path;
  const text = JSON.stringify(args);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
