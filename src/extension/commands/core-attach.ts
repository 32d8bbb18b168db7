import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import * as vscode from 'vscode';
import * as z from '../../core/zod.js';
import { UsageError } from '../../core/errors.js';
import { checkCoreFolder } from '../diagnostics/manifest-check.js';
import { toDiagnostic } from '../diagnostics/manifest-diagnostics.js';
import { parseArgs } from './args.js';
import type { CommandContext } from './command-context.js';
import { Cancelled, pickAgent } from './ui.js';

const CoreAttachArgs = z.strictObject({
  agent: z.optional(z.string().check(z.minLength(1))),
  /** The core folder; relative to the first workspace folder. */
  path: z.optional(z.string().check(z.minLength(1))),
  /** True: detach the agent's core instead (the folder stays on disk). */
  detach: z.optional(z.boolean()),
});

/**
 * Attach Agent Core… (as `pepe agent add NAME --core DIR` does): the folder is checked first
 * (its modules are loaded for that only in a trusted workspace); a core with problems is not
 * attached, and its problems go to the Problems panel. The agent's other settings are kept.
 */
export async function coreAttach(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(CoreAttachArgs, 'pepe.core.attach', raw);
  const pepe = await ctx.host.get();
  const agent = args.agent ?? (await pickAgent(pepe, args.detach ? 'Pepe: Detach Agent Core' : 'Pepe: Attach Agent Core'));
  if (!pepe.config.agents?.[agent]) throw new UsageError(`unknown agent "${agent}"`);
  let folder: string | undefined;
  if (!args.detach) {
    folder = args.path;
    if (!folder) {
      const root = vscode.workspace.workspaceFolders?.[0]?.uri;
      const picked = await vscode.window.showOpenDialog({ title: `Pepe: Attach Agent Core to ${agent}`, canSelectFolders: true, canSelectFiles: false, defaultUri: root, openLabel: 'Attach' });
      if (!picked?.[0]) throw new Cancelled();
      folder = picked[0].fsPath;
    }
    const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
    folder = isAbsolute(folder) ? folder : resolve(base, folder);
    if (!existsSync(folder)) throw new UsageError(`no such folder: ${folder}`);
    const results = checkCoreFolder(folder, vscode.workspace.isTrusted);
    let count = 0;
    for (const r of results) {
      ctx.diagnostics.set(vscode.Uri.file(r.file), r.problems.map(toDiagnostic));
      count += r.problems.length;
    }
    if (count) throw new UsageError(`the agent core at ${folder} has ${count} problem(s) (see the Problems panel); ${agent} was not changed`);
  }
  await pepe.agentEdit(agent, { core: folder ?? null });
  await ctx.host.reload();
  ctx.refresh();
  ctx.log.info(folder ? `agent ${agent}: core ${folder} attached` : `agent ${agent}: core detached`);
  return { agent, core: folder ?? null };
}
