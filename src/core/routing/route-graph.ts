import type { PepeConfig } from '../config/schema.js';

/** The route graph for surfaces (spec 6.1): who may message whom, and who can actually do it. */
export interface RouteGraph {
  agents: { name: string; canSend: boolean; project: string | null }[];
  /** Directed: `from` may message `to`. */
  edges: { from: string; to: string; usable: boolean; targetExists: boolean }[];
}

/** Spec 6.1: a route alone is not enough; the agent also needs the send_to_agent tool. */
export function hasSendTool(config: PepeConfig, agent: string): boolean {
  const tools = config.agents?.[agent]?.tools;
  return !tools || tools.includes('send_to_agent');
}

export function routeGraph(config: PepeConfig): RouteGraph {
  const names = Object.keys(config.agents ?? {});
  const agents = names.map((name) => ({ name, canSend: hasSendTool(config, name), project: config.agents?.[name]?.project ?? null }));
  const edges = names.flatMap((from) =>
    (config.agents?.[from]?.can_message ?? []).map((to) => ({ from, to, usable: hasSendTool(config, from) && names.includes(to), targetExists: names.includes(to) })),
  );
  return { agents, edges };
}

export function canMessage(config: PepeConfig, from: string, to: string): boolean {
  return (config.agents?.[from]?.can_message ?? []).includes(to);
}
