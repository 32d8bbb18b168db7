import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import * as vscode from 'vscode';
import { preview, visibleLine } from '../../core/display.js';
import { riskKindsOf, scopedEntry } from '../../core/permissions/grant-scope.js';
import { keyEnvNames } from '../host/api-keys.js';
import { checkCoreFolder } from '../diagnostics/manifest-check.js';
import { toDiagnostic } from '../diagnostics/manifest-diagnostics.js';
import { ApiKeyArgs, ApprovalArgs, CoreCheckArgs, parseArgs, PluginInstallArgs } from './args.js';
import type { CommandContext } from './command-context.js';
import { withFlow } from './input-flow.js';
import { Cancelled, pick } from './ui.js';

/** Doctor (spec 3.4, 9.1): the same findings as `pepe doctor`, as a readable document. */
export async function doctor(ctx: CommandContext): Promise<unknown> {
  const pepe = await ctx.host.get();
  await ctx.host.reload();
  const findings = ctx.host.configProblem ? [{ level: 'problem' as const, area: 'config' as const, message: ctx.host.configProblem }] : await pepe.doctor();
  const lines = ['# Pepe doctor', '', `PEPE_HOME: \`${pepe.paths.home}\``, ''];
  if (!findings.length) lines.push('No problems found.');
  for (const f of findings) lines.push(`- **${f.level}** (${f.area}): ${f.message}`);
  await ctx.docs.show('Doctor.md', lines.join('\n') + '\n');
  ctx.log.info(`doctor: ${findings.length} finding(s)`);
  return findings;
}

export async function pluginInstall(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(PluginInstallArgs, 'pepe.plugin.install', raw);
  const pepe = await ctx.host.get();
  let path = args.path;
  if (!path) {
    const picked = await vscode.window.showOpenDialog({
      title: 'Pepe: Install Plugin',
      canSelectMany: false,
      openLabel: 'Install',
      filters: { 'Slot plugins': ['mjs', 'js', 'cjs', 'ts'] },
    });
    if (!picked?.[0]) throw new Cancelled();
    path = picked[0].fsPath;
  }
  const info = await pepe.pluginInstall(path);
  ctx.refresh();
  ctx.log.info(`plugin ${info.name} installed (claims ${info.slot})`);
  vscode.window.setStatusBarMessage(`Pepe: installed ${info.name} (slot ${info.slot})`, 4000);
  return info;
}

/** Spec 4.2: keys live in SecretStorage, under the name a model's `api_key_env` gives. */
export async function apiKeySet(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(ApiKeyArgs, 'pepe.apiKey.set', raw);
  const pepe = await ctx.host.get();
  const name0 = args.name;
  const { name, value } = await withFlow('Pepe: Set API Key', undefined, async (flow) => {
    let name = name0;
    if (!name) {
      const items: (vscode.QuickPickItem & { env?: string })[] = await Promise.all(
        keyEnvNames(pepe.config.models).map(async (env) => {
          const users = Object.entries(pepe.config.models ?? {}).filter(([, m]) => keyEnvNames({ m }).includes(env)).map(([id]) => id);
          return { label: env, description: `model${users.length > 1 ? 's' : ''} ${users.join(', ')}${(await ctx.apiKeys.has(env)) ? ' · stored' : ''}`, env };
        }),
      );
      items.push({ label: 'Another variable…', description: 'type its name' });
      // One flow, counted: which variable (and its name, if another), then the key.
      flow.setTotalSteps(2);
      const picked = await flow.pick(items, { placeholder: 'which api_key_env' });
      if (!picked.env) flow.setTotalSteps(3);
      name = picked.env ?? (await flow.text({ prompt: 'Environment variable name (as in "api_key_env")', validate: (v) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(v) ? undefined : 'letters, digits and _') }));
    }
    const value = args.value ?? (await flow.secret({ title: `Pepe: API key for ${name}`, prompt: 'Stored in VS Code SecretStorage, never in settings or config.json' }));
    return { name, value };
  });
  if (!value) throw new Cancelled();
  // Resolves once the key is overlaid into the env the core reads keys from: the next request uses it.
  await ctx.apiKeys.set(name, value);
  const used = keyEnvNames(pepe.config.models).includes(name);
  ctx.refresh(); // the Agents tree warns about missing keys
  ctx.log.info(`API key for ${name} stored in SecretStorage${used ? '' : ' (no model names it in api_key_env yet)'}`);
  vscode.window.setStatusBarMessage(`Pepe: API key for ${name} stored`, 4000);
  return { name, stored: true, usedByModel: used };
}

/** Check Agent Core (spec 7): every manifest of a core, into the Problems panel. */
export async function coreCheck(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(CoreCheckArgs, 'pepe.core.check', raw);
  let folder = args.path;
  if (!folder) {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    const picked = await vscode.window.showOpenDialog({ title: 'Pepe: Check Agent Core', canSelectFolders: true, canSelectFiles: false, defaultUri: root, openLabel: 'Check' });
    if (!picked?.[0]) throw new Cancelled();
    folder = picked[0].fsPath;
  }
  const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  folder = isAbsolute(folder) ? folder : resolve(base, folder);
  if (!existsSync(folder)) throw new Error(`no such folder: ${folder}`);
  const trusted = vscode.workspace.isTrusted;
  const results = checkCoreFolder(folder, trusted);
  let count = 0;
  for (const r of results) {
    ctx.diagnostics.set(vscode.Uri.file(r.file), r.problems.map(toDiagnostic));
    count += r.problems.length;
  }
  const note = trusted ? '' : ' (restricted mode: this core\'s modules will not load; the agent runs with base_input/base_output only)';
  if (count) void vscode.window.showWarningMessage(`Pepe: ${count} problem(s) in the agent core at ${folder}; see the Problems panel.${note}`);
  else vscode.window.setStatusBarMessage(`Pepe: the agent core at ${folder} is valid${note}`, 5000);
  return { folder, problems: results.flatMap((r) => r.problems.map((p) => ({ file: r.file, ...p }))), trusted, manifests: results.map((r) => r.file) };
}

/** Spec 5.4: calls parked while nobody was there, resolved here. */
export async function approvalsShow(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(ApprovalArgs, 'pepe.approvals.show', raw);
  const pepe = await ctx.host.get();
  const pending = await pepe.approvalList();
  if (!args.id && !pending.length) {
    void vscode.window.showInformationMessage('Pepe: no pending approvals.');
    return { pending: [] };
  }
  const id =
    args.id ??
    (
      await pick(
        // What the model wrote is shown visible and inert: no control character reaches the list raw.
        pending.map((p) => ({ label: `${p.agent}: ${visibleLine(p.tool)}`, description: p.id, detail: visibleLine(p.summary ?? preview(p.args, 400)), id: p.id })),
        { title: 'Pepe: Pending Approvals', placeHolder: 'a parked call to approve or deny' },
      )
    ).id;
  const call = pending.find((p) => p.id === id || p.id.startsWith(id));
  // "Always" saves the tool with the risks this call showed (bash:network), not the bare tool:
  // a later call carrying another risk is asked again.
  const entry = call ? scopedEntry(call.tool, riskKindsOf(call.riskHints)) : undefined;
  const risks = call ? riskKindsOf(call.riskHints) : [];
  const alwaysLabel = call ? `Approve, and always allow ${visibleLine(call.tool)} ${risks.length ? `calls with no risk beyond ${risks.join(', ')}` : 'calls that carry no risk'}` : 'Approve, and always allow calls like this one';
  const action =
    args.action ??
    (
      await pick(
        [
          { label: 'Approve', description: 'it runs now; the agent is told at its next turn', value: 'approve' as const },
          { label: alwaysLabel, description: `added to the agent's auto_approve${entry ? ` as ${visibleLine(entry)}` : ''}; a call with a new risk still asks`, value: 'always' as const },
          { label: 'Deny…', value: 'deny' as const },
        ],
        { title: `Pepe: approval ${id}` },
      )
    ).value;
  if (action === 'deny') {
    const reason = args.reason ?? (args.id ? undefined : await vscode.window.showInputBox({ title: `Deny ${id}`, prompt: 'Optional: why (the agent reads this)' }));
    const denied = await pepe.approvalDeny(id, { reason: reason || undefined });
    ctx.log.info(`approval ${denied.id} denied`);
    return denied;
  }
  // Runs now, in the call's session and directory; the agent's next turn of that session is told.
  const outcome = await pepe.approveNow(id, { always: action === 'always' });
  const approved = outcome.call;
  ctx.refresh();
  const how = outcome.ran ? (outcome.isError ? 'it ran and failed' : 'it ran') : 'not run';
  ctx.log.info(`approval ${approved.id} approved${action === 'always' ? ' (always)' : ''}; ${how}: ${visibleLine(outcome.content)}`);
  void vscode.window.showInformationMessage(`Pepe: approved ${approved.id} (${approved.agent}: ${visibleLine(approved.tool)}); ${how}.`);
  return approved;
}
