import * as vscode from 'vscode';
import { candidatesFor } from '../../core/slots/availability.js';
import type { SlotName } from '../../core/slots/names.js';
import type { Pepe } from '../../core/pepe.js';
import type { SlotStatus } from '../../core/slots/slot-service.js';
import { parseArgs, SlotClearArgs, SlotListArgs, SlotSetArgs, SlotTestArgs } from './args.js';
import type { CommandContext } from './command-context.js';
import { Cancelled, input, pick, pickAgent, pickProject } from './ui.js';

type Target = { agent?: string; project?: string };

const HARNESS_WARNING = 'A harness plugin runs whole turns in the extension host, with the permission barrier in its own hands. Only pin one you trust.';

async function pickSlot(pepe: Pepe, title: string, only?: (slot: SlotName) => boolean): Promise<SlotName> {
  const statuses = await pepe.slotList();
  const items = statuses
    .filter((s) => !only || only(s.slot))
    .map((s) => ({ label: s.slot, description: s.status === 'ok' ? s.occupant : `using the default instead (${s.configured})`, slot: s.slot }));
  if (!items.length) throw new Error('no slot has a configured occupant to clear');
  return (await pick(items, { title, placeHolder: 'slot' })).slot;
}

async function pickScope(pepe: Pepe, title: string): Promise<Target> {
  const scope = await pick(
    [
      { label: 'Install-wide', description: '"slots" in config.json', value: 'install' as const },
      { label: 'Project…', description: 'a project\'s "default_slots"', value: 'project' as const },
      { label: 'Agent…', description: 'one agent\'s "slots"', value: 'agent' as const },
    ],
    { title, placeHolder: 'where to set it' },
  );
  if (scope.value === 'project') return { project: await pickProject(pepe, title) };
  if (scope.value === 'agent') return { agent: await pickAgent(pepe, title) };
  return {};
}

/** Scope from arguments: explicit `scope`, or implied by agent/project, or install-wide for a top-level tree node. */
function scopeFrom(args: { scope?: string; agent?: string; project?: string }, fromTree: boolean): Target | undefined {
  if (args.agent) return { agent: args.agent };
  if (args.project) return { project: args.project };
  if (args.scope === 'install' || fromTree) return {};
  return undefined;
}

function isTreeNode(raw: unknown): boolean {
  return !!raw && typeof raw === 'object' && (raw as { kind?: unknown }).kind === 'slot';
}

export async function slotSet(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(SlotSetArgs, 'pepe.slot.set', raw);
  const pepe = await ctx.host.get();
  const title = 'Pepe: Set Slot';
  const slot = args.slot ?? (await pickSlot(pepe, title));
  const target = scopeFrom(args, isTreeNode(raw)) ?? (await pickScope(pepe, `${title}: ${slot}`));
  let plugin = args.plugin;
  if (!plugin) {
    const { eligible, others } = candidatesFor(slot, await pepe.pluginList());
    if (!eligible.length) {
      const why = others.map((o) => `${o.plugin.name ?? o.plugin.file}: ${o.why}`).join('; ');
      throw new Error(`no installed plugin claims ${slot}${why ? ` (${why})` : ''}; install one with Pepe: Install Plugin…`);
    }
    const items: (vscode.QuickPickItem & { plugin?: string })[] = eligible.map((p) => ({ label: p.name!, description: p.source === 'extension' ? 'from an extension' : undefined, detail: p.file, plugin: p.name! }));
    if (others.length) {
      items.push({ label: 'not offered', kind: vscode.QuickPickItemKind.Separator });
      for (const o of others) items.push({ label: `$(circle-slash) ${o.plugin.name ?? o.plugin.file}`, description: o.why });
    }
    const picked = await pick(items, { title: `${title}: ${slot} (${describeTarget(target)})`, placeHolder: `plugin for ${slot}` });
    if (!picked.plugin) throw new Cancelled(); // a "not offered" row
    plugin = picked.plugin;
  }
  if (slot === 'harness' && !args.plugin) {
    const ok = await vscode.window.showWarningMessage(`Pin ${plugin} as the harness?`, { modal: true, detail: HARNESS_WARNING }, 'Pin harness');
    if (!ok) throw new Cancelled();
  }
  await pepe.slotSet(slot, plugin, target);
  ctx.refresh();
  ctx.log.info(`slot ${slot} (${describeTarget(target)}) → ${plugin}`);
  vscode.window.setStatusBarMessage(`Pepe: ${slot} (${describeTarget(target)}) now uses ${plugin}`, 4000);
  return { slot, plugin, ...target };
}

export async function slotClear(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(SlotClearArgs, 'pepe.slot.clear', raw);
  const pepe = await ctx.host.get();
  const title = 'Pepe: Clear Slot';
  const config = pepe.config;
  const scopesOf = (slot: SlotName): (Target & { label: string })[] => {
    const out: (Target & { label: string })[] = [];
    if (config.slots?.[slot]) out.push({ label: `Install-wide (${config.slots[slot]})` });
    for (const [project, p] of Object.entries(config.projects ?? {})) if (p.default_slots?.[slot]) out.push({ label: `Project ${project} (${p.default_slots[slot]})`, project });
    for (const [agent, a] of Object.entries(config.agents ?? {})) if (a.slots?.[slot]) out.push({ label: `Agent ${agent} (${a.slots[slot]})`, agent });
    return out;
  };
  const slot = args.slot ?? (await pickSlot(pepe, title, (s) => scopesOf(s).length > 0));
  let target = scopeFrom(args, isTreeNode(raw));
  if (!target) {
    const scopes = scopesOf(slot);
    if (!scopes.length) throw new Error(`${slot} is not set anywhere; it already uses the built-in`);
    const picked = scopes.length === 1 ? scopes[0]! : await pick(scopes, { title: `${title}: ${slot}`, placeHolder: 'which setting to remove' });
    target = picked.agent ? { agent: picked.agent } : picked.project ? { project: picked.project } : {};
  }
  const previous = await pepe.slotClear(slot, target);
  ctx.refresh();
  ctx.log.info(`slot ${slot} (${describeTarget(target)}) cleared${previous ? ` (was ${previous})` : ''}`);
  vscode.window.setStatusBarMessage(`Pepe: ${slot} (${describeTarget(target)}) returned to the built-in`, 4000);
  return { slot, previous, ...target };
}

export async function slotList(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(SlotListArgs, 'pepe.slot.list', raw);
  const pepe = await ctx.host.get();
  const list = await pepe.slotList(args);
  if (!raw || isTreeNode(raw)) {
    await ctx.docs.show('Slots.md', slotListMarkdown(list, describeTarget(args)));
    await vscode.commands.executeCommand('pepe.slots.focus');
  }
  return list;
}

export async function slotTest(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(SlotTestArgs, 'pepe.slot.test', raw);
  const pepe = await ctx.host.get();
  const interactive = !raw || isTreeNode(raw);
  const slot = args.slot ?? (await pickSlot(pepe, 'Pepe: Test Slot'));
  let { query, command } = args;
  if ((slot === 'memory' || slot === 'web_search') && query === undefined) query = await input({ title: `Pepe: Test Slot: ${slot}`, prompt: 'Query' });
  if (slot === 'sandbox' && !command) command = (await input({ title: 'Pepe: Test Slot: sandbox', prompt: 'Program and arguments, separated by spaces', value: 'env' })).split(/\s+/).filter(Boolean);
  const result = await pepe.slotTest(slot, { agent: args.agent, project: args.project, query, command });
  ctx.log.info(`slot test ${slot}: answered by ${result.answeredBy}${result.fallback ? ` (fallback: ${result.fallback.reason}: ${result.fallback.detail})` : ''} in ${result.durationMs} ms`);
  if (interactive) await ctx.docs.show(`Test Slot ${slot}.json`, JSON.stringify(result, null, 2) + '\n');
  return result;
}

function describeTarget(t: Target): string {
  return t.agent ? `agent ${t.agent}` : t.project ? `project ${t.project}` : 'install-wide';
}


/** What `pepe slot list` prints, as a read-only document. */
function slotListMarkdown(list: readonly SlotStatus[], scope: string): string {
  const cell = (t: string) => t.replace(/[|\\`]/g, '\\$&').replace(/\s+/g, ' ');
  const lines = [`# Pepe slots (${scope})`, '', 'A slot is one job a plugin may take over from the built-in; a failing plugin falls back to it.', '', '| slot | in use | default | configured | status | fallbacks |', '|---|---|---|---|---|---|'];
  for (const s of list) {
    const status = s.status === 'default-instead' ? `using the default instead: ${s.reason ?? ''}` : s.status === 'unconfined' ? `unconfined: ${s.reason ?? ''}` : 'ok';
    const fallbacks = s.fallbacks.count ? `${s.fallbacks.count} (last: ${s.fallbacks.lastReason ?? ''})` : '0';
    lines.push(`| ${cell(s.slot)} | ${cell(s.occupant)} | ${cell(s.default)} | ${s.configured ? `${cell(s.configured)} (${s.scope})` : '—'} | ${cell(status)} | ${cell(fallbacks)} |`);
  }
  return lines.join('\n') + '\n';
}
