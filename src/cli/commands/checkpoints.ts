import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { json, printListing, table } from '../format.js';
import { visibleLine } from '../../core/display.js';
import { skippedText } from '../../core/checkpoints/skipped.js';
import { checkpointLabel } from '../../core/checkpoints/checkpoint-label.js';
import { loadCliExtras } from '../core-loader.js';

/**
 * `pepe checkpoints list|diff|restore` (issue 17): the snapshots taken before turns that changed
 * files in this folder, kept in a repository of Pepe's own (never the project's .git).
 */
export function registerCheckpointCommands(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('checkpoints')
    .description('snapshots of this folder taken before each turn that changed files: list, compare, restore')
    .option('--workspace <dir>', 'the folder (default: the current directory)');

  const open = async () => {
    const { Checkpoints } = await loadCliExtras();
    const pepe = await ctx.pepe();
    return Checkpoints.open(pepe.paths.home, cmd.opts<{ workspace?: string }>().workspace ?? process.cwd());
  };

  cmd
    .command('list')
    .description('checkpoints of this folder, newest first')
    .option('-n, --limit <n>', 'at most this many', '20')
    .option('--json', 'machine-readable output')
    .action(async (opts: { limit: string; json?: boolean }) => {
      const cp = await open();
      const list = await cp.list(Math.max(1, Number.parseInt(opts.limit, 10) || 20));
      const shown = printListing((text) => ctx.out(text), opts.json, list, {
        empty: `no checkpoints for ${cp.workspace}`,
        table: (items) =>
          table(
            ['CHECKPOINT', 'WHEN', 'WHY', 'AGENT', 'SESSION', 'TURN'],
            items.map((c) => [c.id.slice(0, 12), c.createdAt.replace('T', ' ').slice(0, 19), checkpointLabel(c), c.agent ?? '', c.sessionId ?? '', c.turnId ?? '']),
          ),
      });
      if (!shown) return;
      // Nested repositories are left out of checkpoints (git would obey their configuration).
      const skipped = [...new Set(list.flatMap((c) => c.skipped ?? []))];
      if (skipped.length) ctx.out(visibleLine(`note: checkpoints ${skippedText(skipped)}; their files are not saved or restored`));
    });

  cmd
    .command('diff')
    .description('what changed since a checkpoint (or between two), as a unified diff')
    .argument('<checkpoint>', 'a checkpoint id (a prefix is enough)')
    .argument('[to]', 'another checkpoint (default: the folder as it is now)')
    .option('--stat', 'only the files that changed')
    .action(async (id: string, to: string | undefined, opts: { stat?: boolean }) => {
      const cp = await open();
      if (opts.stat) {
        const changes = await cp.changes(id, to);
        return ctx.out(changes.length ? changes.map((c) => `${c.status.padEnd(12)} ${c.path}`).join('\n') : 'no changes');
      }
      const diff = await cp.diff(id, to);
      ctx.out(diff || 'no changes');
    });

  cmd
    .command('restore')
    .description('bring the folder back to a checkpoint (the present is checkpointed first, so this can be undone)')
    .argument('<checkpoint>', 'a checkpoint id (a prefix is enough)')
    .option('--json', 'machine-readable output')
    .action(async (id: string, opts: { json?: boolean }) => {
      const cp = await open();
      const r = await cp.restore(id);
      if (opts.json) return ctx.out(json({ restored: r.restored.id, saved: r.saved.id, changes: r.changes }));
      const lines = r.changes.map((c) => `  ${{ added: 'restored', deleted: 'removed', modified: 'reverted', type_changed: 'reverted' }[c.status]} ${c.path}`);
      ctx.out(
        [`restored ${cp.workspace} to checkpoint ${r.restored.id.slice(0, 12)}${r.changes.length ? ':' : ' (no files differed)'}`, ...lines, `undo with: pepe checkpoints restore ${r.saved.id.slice(0, 12)}`].join('\n'),
      );
    });
}
