import * as vscode from 'vscode';
import { parseArgs, RouteArgs } from './args.js';
import type { CommandContext } from './command-context.js';
import { withFlow } from './input-flow.js';
import { pick, pickAgent } from './ui.js';

/** Spec 6.1: `from → to` is directed; adding it opens nothing from `to` back to `from`. */
export async function routeAdd(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(RouteArgs, 'pepe.route.add', raw);
  const pepe = await ctx.host.get();
  // One flow, counted (issue 26): the keyboard stays in the same input from "from" to "to".
  const { from, to } = await withFlow('Pepe: Add Route', !args.from && !args.to ? 2 : undefined, async (flow) => {
    const from = args.from ?? (await pickAgent(pepe, 'Pepe: Add Route: from which agent', [], flow));
    const existing = pepe.config.agents?.[from]?.can_message ?? [];
    const to = args.to ?? (await pickAgent(pepe, `Pepe: Add Route: ${from} may message…`, [from, ...existing], flow));
    return { from, to };
  });
  if (!pepe.config.agents?.[to]) throw new Error(`there is no agent "${to}"; add it first`);
  const added = await pepe.routeAdd(from, to);
  ctx.refresh();
  const warn = pepe.routeGraph().agents.find((a) => a.name === from)?.canSend === false;
  ctx.log.info(`route ${from} → ${to} ${added ? 'added' : 'already existed'}`);
  if (warn) void vscode.window.showWarningMessage(`${from} may now message ${to}, but it lacks the send_to_agent tool: add it to its "tools" to use the route.`);
  else vscode.window.setStatusBarMessage(`Pepe: ${from} → ${to} ${added ? 'added' : 'already existed'}`, 4000);
  return { from, to, added };
}

export async function routeRemove(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(RouteArgs, 'pepe.route.remove', raw);
  const pepe = await ctx.host.get();
  let { from, to } = args;
  if (!from || !to) {
    const edges = pepe.routeGraph().edges.filter((e) => (!from || e.from === from) && (!to || e.to === to));
    if (!edges.length) throw new Error('there are no routes to remove');
    const picked = await pick(edges.map((e) => ({ label: `${e.from} → ${e.to}`, edge: e })), { title: 'Pepe: Remove Route', placeHolder: 'route' });
    from = picked.edge.from;
    to = picked.edge.to;
  }
  const removed = await pepe.routeRemove(from, to);
  ctx.refresh();
  ctx.log.info(`route ${from} → ${to} ${removed ? 'removed' : 'did not exist'}`);
  if (!removed) throw new Error(`there is no route ${from} → ${to}`);
  vscode.window.setStatusBarMessage(`Pepe: ${from} → ${to} removed`, 4000);
  return { from, to, removed };
}

