import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import * as z from '../../core/zod.js';
import { Checkpoints, type Checkpoint } from '../../core/checkpoints/checkpoints.js';
import { parseArgs } from './args.js';
import { checkpointDetail, checkpointLabel, checkpointsThatChanged } from '../../core/checkpoints/checkpoint-label.js';
import type { CommandContext, CommandHandler } from './command-context.js';
import { Cancelled, pick } from './ui.js';

/**
 * Checkpoints from the editor (issue 17): "Restore Checkpoint…" and "Compare with Checkpoint…".
 * The chat passes the turn (`{ sessionId, turnId }`: "restore to / compare with before this
 * turn"); a caller may name a checkpoint (`{ id }`); otherwise a quick pick lists them.
 */
const CheckpointArgs = z.object({
  id: z.optional(z.string().check(z.regex(/^[0-9a-f]{4,40}$/i))),
  sessionId: z.optional(z.string().check(z.minLength(1))),
  turnId: z.optional(z.string().check(z.minLength(1))),
});

async function open(ctx: CommandContext): Promise<Checkpoints> {
  const pepe = await ctx.host.get();
  return Checkpoints.open(pepe.paths.home, pepe.workspace);
}

/** "before “Fix the rounding” (coder · 2026-12-02 00:31:05)". */
function describe(c: Checkpoint): string {
  return `${checkpointLabel(c)} (${checkpointDetail(c)})`;
}

async function choose(ctx: CommandContext, raw: unknown, command: string, title: string): Promise<{ cp: Checkpoints; chosen: Checkpoint }> {
  const args = parseArgs(CheckpointArgs, command, raw);
  const cp = await open(ctx);
  if (args.id) return { cp, chosen: await cp.get(args.id) };
  const list = await cp.list(200);
  if (args.sessionId && args.turnId) {
    const hit = list.find((c) => c.reason === 'turn' && c.sessionId === args.sessionId && c.turnId === args.turnId);
    if (!hit) throw new Error('this turn changed no files, so it has no checkpoint');
    return { cp, chosen: hit };
  }
  // Named by the message that started the turn; a turn that changed nothing is not offered.
  const offered = await checkpointsThatChanged(cp, list);
  if (!offered.length) throw new Error(`no checkpoints for ${cp.workspace} yet: one is taken before each turn that changes files`);
  const picked = await pick(
    offered.map((c) => ({ label: checkpointLabel(c), description: checkpointDetail(c), detail: `checkpoint ${c.id.slice(0, 8)}`, checkpoint: c })),
    { title, placeHolder: 'checkpoint (newest first)' },
  );
  return { cp, chosen: picked.checkpoint };
}

export const checkpointRestore: CommandHandler = async (ctx, raw) => {
  const { cp, chosen } = await choose(ctx, raw, 'pepe.checkpoints.restore', 'Pepe: Restore Checkpoint…');
  const changes = await cp.changes(chosen.id);
  if (!changes.length) {
    void vscode.window.showInformationMessage(`Pepe: the workspace already matches checkpoint ${chosen.id.slice(0, 8)}.`);
    return { restored: chosen.id, changes: [] };
  }
  // Open editors of files the restore rewrites must not keep stale unsaved text: refuse while any is dirty.
  const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file' && changes.some((c) => join(cp.workspace, c.path) === d.uri.fsPath));
  if (dirty.length) throw new Error(`save or revert ${dirty.map((d) => basename(d.uri.fsPath)).join(', ')} first: the restore would change them under their unsaved edits`);
  const list = changes.slice(0, 12).map((c) => `${{ added: 'remove', deleted: 'bring back', modified: 'revert', type_changed: 'revert' }[c.status]} ${c.path}`);
  if (changes.length > 12) list.push(`… and ${changes.length - 12} more`);
  const go = 'Restore';
  const answer = await vscode.window.showWarningMessage(
    `Restore ${basename(cp.workspace)} to ${describe(chosen)}?`,
    { modal: true, detail: `${list.join('\n')}\n\nThe present is checkpointed first, so this can be undone. Ignored files are not touched.` },
    go,
  );
  if (answer !== go) throw new Cancelled();
  const r = await cp.restore(chosen.id);
  ctx.log.info(`checkpoint ${r.restored.id} restored; the present was saved as ${r.saved.id}`);
  void vscode.window.showInformationMessage(`Pepe: restored checkpoint ${r.restored.id.slice(0, 8)} (${r.changes.length} file${r.changes.length === 1 ? '' : 's'}).`, 'Undo').then((pickUndo) => {
    if (pickUndo) void vscode.commands.executeCommand('pepe.checkpoints.restore', { id: r.saved.id });
  });
  return { restored: r.restored.id, saved: r.saved.id, changes: r.changes };
};

export const checkpointCompare: CommandHandler = async (ctx, raw) => {
  const { cp, chosen } = await choose(ctx, raw, 'pepe.checkpoints.compare', 'Pepe: Compare with Checkpoint…');
  const diff = await cp.diff(chosen.id);
  await ctx.docs.show(`Changes since ${chosen.id.slice(0, 8)}.diff`, diff || `No changes since checkpoint ${chosen.id.slice(0, 8)}.\n`);
  return { id: chosen.id };
};
