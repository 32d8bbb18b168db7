import * as z from '../zod.js';
import { defineTool, untrustedBlock, type Tool } from '../tools/tool.js';

/** Spec 6.2: a one-off consultation along a granted route. */
export const sendToAgent = defineTool({
  name: 'send_to_agent',
  description: 'Consult another agent you have a route to. It answers in a fresh run, without this conversation; its final answer comes back as the result. You keep the conversation.',
  input: z.object({ to: z.string().check(z.minLength(1), z.describe('the agent to consult')), message: z.string().check(z.minLength(1), z.describe('everything it needs to know: it sees nothing else')) }),
  async execute({ to, message }, ctx) {
    if (!ctx.routing) return { content: 'send_to_agent is not available here', isError: true };
    const outcome = await ctx.routing.sendToAgent(to, message);
    // Spec 5.3: an answer built on outside content the callee took in is outside content here too.
    if (outcome.untrusted) {
      ctx.markOutsideContent(`send_to_agent ${to}`);
      return { ...outcome, content: untrustedBlock(`agent ${to} (it read outside content)`, outcome.content) };
    }
    return outcome;
  },
});

/** Spec 6.3: hand the rest of the conversation to another agent (asks the user first). */
export const switchAgent = defineTool({
  name: 'switch_agent',
  description: 'Hand the rest of this conversation to another agent you have a route to. You still answer this turn; from the next message the other agent answers, starting from zero.',
  input: z.object({ target: z.string().check(z.minLength(1)) }),
  async execute({ target }, ctx) {
    if (!ctx.routing) return { content: 'switch_agent is not available here', isError: true };
    return ctx.routing.switchAgent(target);
  },
});

/** Spec 6.4: change routes in conversation (always asks the user first). */
export const setRoute = defineTool({
  name: 'set_route',
  description: 'Allow or deny a directed route between agents ("from" may message "to"). "from" defaults to you, "action" to allow. Always asks the user first.',
  input: z.object({ from: z.optional(z.string().check(z.minLength(1))), to: z.string().check(z.minLength(1)), action: z._default(z.enum(['allow', 'deny']), 'allow') }),
  async execute({ from, to, action }, ctx) {
    if (!ctx.routing) return { content: 'set_route is not available here', isError: true };
    return ctx.routing.setRoute(from ?? ctx.agent, to, action);
  },
});

const TOOLS = [sendToAgent, switchAgent, setRoute] as const;
export const ROUTING_TOOLS: Tool<any>[] = [...TOOLS];

/** Their names, as their definitions spell them: the tools' policy table needs a row for each. */
export type RoutingToolName = (typeof TOOLS)[number]['name'];

/** The built-in skill `manage-routing` (spec 6.4), given to agents that have set_route. */
export const MANAGE_ROUTING_SKILL = [
  'Skill: manage-routing.',
  'Routes say which agent may message which. They are directed: a route A → B lets A consult B with send_to_agent (or hand over with switch_agent); it opens nothing from B back to A.',
  'Use set_route {from?, to, action?: "allow" | "deny"} to add or remove one route ("from" defaults to you, "action" to allow). Every set_route call goes through the permission barrier: the user sees it and decides; a denial writes nothing.',
  'Ask for the narrowest route that does the job, and never a reverse route just to get an answer back: the answer to send_to_agent already comes back to the caller.',
].join('\n');
