import type { PepeConfig } from '../config/schema.js';

/** The route graph for surfaces (spec 6.1): who may message whom, and who can actually do it. */
export interface RouteGraph {
  agents: { name: string; canSend: boolean; project: string | null }[];
  /**
   * Directed: `from` may message `to`. `crossesProjects`: the two agents are in different
   * projects and no `can_message_projects` opens that boundary, so the route is not usable.
   */
  edges: { from: string; to: string; usable: boolean; targetExists: boolean; crossesProjects: boolean }[];
}

/** Spec 6.1: a route alone is not enough; the agent also needs the send_to_agent tool. */
export function hasSendTool(config: PepeConfig, agent: string): boolean {
  const tools = config.agents?.[agent]?.tools;
  return !tools || tools.includes('send_to_agent');
}

/**
 * The configured agent a model meant: the exact name, else the one name that matches ignoring
 * case (models write "Billing" for "billing"). Null when none does, or when several names differ
 * only by case and none matches exactly: guessing between them would be a route nobody granted.
 */
export function canonicalAgent(config: PepeConfig, name: string): string | null {
  const agents = config.agents ?? {};
  if (Object.prototype.hasOwnProperty.call(agents, name)) return name;
  const lower = name.toLowerCase();
  const matches = Object.keys(agents).filter((n) => n.toLowerCase() === lower);
  return matches.length === 1 ? matches[0]! : null;
}

/**
 * Project boundaries: agents in different projects (an agent with no project is outside every
 * project) never reach each other, unless the sender's project lists the other in
 * `can_message_projects`. Directed, like routes: acme opening globex opens nothing back.
 */
export function crossesProjects(config: PepeConfig, from: string, to: string): boolean {
  const a = config.agents?.[from]?.project ?? null;
  const b = config.agents?.[to]?.project ?? null;
  if (a === b) return false;
  if (a === null || b === null) return true;
  return !(config.projects?.[a]?.can_message_projects ?? []).includes(b);
}

export function routeGraph(config: PepeConfig): RouteGraph {
  const names = Object.keys(config.agents ?? {});
  const agents = names.map((name) => ({ name, canSend: hasSendTool(config, name), project: config.agents?.[name]?.project ?? null }));
  const edges = names.flatMap((from) =>
    (config.agents?.[from]?.can_message ?? []).map((to) => {
      const targetExists = names.includes(to);
      const crosses = targetExists && crossesProjects(config, from, to);
      return { from, to, usable: hasSendTool(config, from) && targetExists && !crosses, targetExists, crossesProjects: crosses };
    }),
  );
  return { agents, edges };
}

/** Both agents exist, the route is granted, and no project boundary is in the way. */
export function canMessage(config: PepeConfig, from: string, to: string): boolean {
  if (!config.agents?.[from] || !config.agents?.[to]) return false;
  return (config.agents[from].can_message ?? []).includes(to) && !crossesProjects(config, from, to);
}
