import { policyOf, TOOL_POLICIES, type BuiltinToolName, type PlanClass } from './tool-policy.js';

/**
 * Plan mode (spec 10): a conversation in plan mode runs only tools that read. The barrier asks
 * this module first, before any grant is looked at, so a pre-approved write is refused too and
 * nobody is asked. What is allowed here still goes through the usual rules afterwards (a read
 * outside the workspace asks, a harmless command runs unasked only while a person watches).
 */

export type { BuiltinToolName, PlanClass };

/** Each built-in tool's plan-mode class (the `plan` column of the tools' policy table). */
export const PLAN_MODE_CLASSES = Object.fromEntries(Object.entries(TOOL_POLICIES).map(([name, p]) => [name, p.plan])) as Readonly<Record<BuiltinToolName, PlanClass>>;

/** Begins every plan-mode refusal, so a surface (and a test) can recognise one. */
export const PLAN_MODE_PREFIX = 'Plan mode is on:';

export interface PlanModeFacts {
  /** A shell call the barrier found carrying no risk at all. */
  harmlessCommand: boolean;
  /** An MCP tool whose server says it only reads (a hint: it lets the call reach the barrier, no further). */
  readOnlyHint: boolean;
}

/** Null when `tool` may go on to the usual rules in plan mode; otherwise the refusal for the model. */
export function planModeRefusal(tool: string, facts: PlanModeFacts): string | null {
  const cls = planClassOf(tool, facts.readOnlyHint);
  if (cls === 'reads' || cls === 'consults') return null;
  if (cls === 'command' && facts.harmlessCommand) return null;
  const what = cls === 'command' ? `the command was not run: in plan mode only commands that only read run` : `${tool} was not run: in plan mode only tools that read run`;
  return `${PLAN_MODE_PREFIX} ${what}. Nobody was asked. Answer with your plan instead; the person starts it when they are ready.`;
}

/** A plugin's tool or a name the table does not know changes things until shown otherwise: unknown means refused. */
export function planClassOf(tool: string, readOnlyHint = false): PlanClass {
  return policyOf({ name: tool, readOnlyHint }).plan;
}

export function isPlanModeRefusal(text: string): boolean {
  return text.startsWith(PLAN_MODE_PREFIX);
}

/** Told to the agent (system text) for a turn in plan mode. */
export const PLAN_MODE_SYSTEM_TEXT = [
  'Plan mode is on for this conversation. You may read files, search memory and the web, consult other agents and run commands that only read;',
  'writing or editing files and any other command are refused. Investigate as needed, then answer with a plan:',
  'numbered steps, the files each step changes and how to check the result. Do not claim you changed anything.',
].join(' ');

/** The next message when a person starts a plan (in acting mode, to the same or another agent). */
export function planHandover(plan: string): string {
  return `Carry out this plan, which was agreed in plan mode:\n\n${plan.trim()}`;
}
