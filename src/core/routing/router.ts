import type { PepeConfig } from '../config/schema.js';
import { errorMessage } from '../errors.js';
import type { EventSink, RunTurnOptions, TurnResult } from '../events.js';
import type { RoutingHooks, ToolOutcome } from '../tools/tool.js';
import { canMessage, canonicalAgent, crossesProjects } from './route-graph.js';

export const DEFAULT_MAX_HOPS = 5;

export interface RouterDeps {
  config: () => PepeConfig;
  runTurn: (opts: RunTurnOptions) => Promise<TurnResult>;
  routeAdd: (from: string, to: string) => Promise<boolean>;
  routeRemove: (from: string, to: string) => Promise<boolean>;
}

export interface RunRouting {
  hooks: RoutingHooks;
  /** Set when switch_agent succeeded in this run (spec 6.3). */
  switchTo(): string | undefined;
}

/**
 * Routing for one run (spec 6): the caller's chain, hop limit and cycle check. Refusals tell the
 * model why without listing the caller's other possible targets.
 */
export function routingFor(
  deps: RouterDeps,
  run: { agent: string; chain: string[]; signal: AbortSignal; emit: EventSink; personPresent: boolean; permissions?: RunTurnOptions['callerRun']; shared?: RunTurnOptions['shared'] },
): RunRouting {
  let switchTo: string | undefined;
  const refuse = (content: string): ToolOutcome => ({ content, isError: true });
  // Discreet (as upstream Pepe): the model learns only that it cannot reach that name, never
  // whether the agent exists, which project it is in, or which routes the caller does have.
  const unavailable = (name: string, what: string) => refuse(`refused: "${name}" is not available to ${run.agent}; it cannot ${what}.`);
  /** The canonical name of a reachable agent, or null. */
  const reachable = (config: PepeConfig, name: string): string | null => {
    const to = canonicalAgent(config, name);
    return to && canMessage(config, run.agent, to) ? to : null;
  };
  let calls = 0;

  const hooks: RoutingHooks = {
    async sendToAgent(name, message) {
      const config = deps.config();
      const { agent, chain } = run;
      const to = reachable(config, name);
      if (!to) return unavailable(name, 'message it');
      if (chain.includes(to)) return refuse(`refused: ${to} is already in this chain (${chain.join(' → ')}); calling it again would be a cycle.`);
      const maxHops = config.limits?.max_hops ?? DEFAULT_MAX_HOPS;
      const hops = chain.length; // calling `to` makes the chain one agent longer: hops = agents - 1
      if (hops > maxHops) return refuse(`refused: the hop limit (${maxHops}) is reached in ${chain.join(' → ')}; answer with what you have.`);
      const id = `${chain.join('>')}>${to}#${++calls}`;
      const routeChain = [...chain, to];
      run.emit({ type: 'route_call', path: chain, phase: 'start', id, from: agent, to, chain: routeChain });
      let result: TurnResult;
      try {
        // A fresh run: the callee's own model chain, tools, slots and memory, none of our history.
        result = await deps.runTurn({ agent: to, text: message, parentChain: chain, signal: run.signal, onEvent: run.emit, personPresent: run.personPresent, origin: 'routed', ...(run.permissions ? { callerRun: run.permissions } : {}), ...(run.shared ? { shared: run.shared } : {}), sessionTitle: `routed from ${chain.join(' → ')}` });
      } catch (e) {
        run.emit({ type: 'route_call', path: chain, phase: 'end', id, from: agent, to, chain: routeChain, result: errorMessage(e), isError: true });
        return refuse(`${to} could not answer: ${errorMessage(e)}`);
      }
      const failed = result.status === 'error' || result.status === 'cancelled';
      const content = failed ? `${to} could not answer (${result.status}${result.error ? `: ${result.error}` : ''})` : result.content;
      run.emit({ type: 'route_call', path: chain, phase: 'end', id, from: agent, to, chain: routeChain, result: content, isError: failed });
      return { content, isError: failed, untrusted: result.tookInOutsideContent };
    },

    async switchAgent(name) {
      const config = deps.config();
      const target = reachable(config, name);
      if (!target) return unavailable(name, 'hand the conversation to it');
      if (run.chain.length > 1) return refuse('refused: a consulted agent cannot hand over a conversation it does not own; answer the caller instead.');
      switchTo = target;
      return { content: `Done: from the next message, ${target} answers in a new session. Tell the user you are connecting them now.` };
    },

    async setRoute(fromName, toName, action) {
      const config = deps.config();
      // The names as configured (models write "Billing" for "billing").
      const from = canonicalAgent(config, fromName);
      const to = canonicalAgent(config, toName);
      // Discreet like the other refusals: the model learns no agent's existence or project from it.
      if (action === 'allow' && (!from || !to || crossesProjects(config, from, to))) return refuse(`refused: no route from "${fromName}" to "${toName}" can be opened from here.`);
      if (!from || !to) return { content: `there was no route ${fromName} → ${toName}` };
      try {
        if (action === 'allow') {
          const added = await deps.routeAdd(from, to);
          return { content: added ? `route ${from} → ${to} allowed (directed: nothing opens from ${to} to ${from})` : `route ${from} → ${to} already existed` };
        }
        const removed = await deps.routeRemove(from, to);
        return { content: removed ? `route ${from} → ${to} removed` : `there was no route ${from} → ${to}` };
      } catch (e) {
        return refuse(`set_route failed: ${errorMessage(e)}`);
      }
    },
  };
  return { hooks, switchTo: () => switchTo };
}
