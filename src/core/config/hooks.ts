import * as z from '../zod.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * Lifecycle hooks in Claude Code's shape (issue 24):
 * `"hooks": {"PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "…", "timeout": 10}]}]}`.
 * Read from $PEPE_HOME/config.json (the person's) and the workspace's `.pepe/hooks.json` (only
 * once accepted). A hook can only tighten: deny or ask before a tool, add context after it.
 */

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop'] as const;
export const HookEvent = z.enum(HOOK_EVENTS);
export type HookEvent = z.infer<typeof HookEvent>;

/** Seconds a hook may take when its entry says nothing. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

const compiles = (s: string) => {
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
};

export const HookCommand = z.looseObject({
  type: z.literal('command'),
  command: z.string().check(z.minLength(1)),
  /** Seconds; the hook is killed after it (a before-tool hook's call is then asked). */
  timeout: z.optional(z.number().check(z.positive(), z.lte(600))),
});

export const HookMatcher = z.looseObject({
  /** A regular expression over the tool's name (whole name); absent, empty or "*": every tool. */
  matcher: z.optional(z.string().check(z.refine(compiles, { message: 'the matcher is not a valid regular expression' }))),
  hooks: z.array(HookCommand),
});

export const HooksConfig = z.partialRecord(HookEvent, z.array(HookMatcher));
export type HooksConfig = z.infer<typeof HooksConfig>;

/** `.pepe/hooks.json`: the same `hooks` object, alone in its file. */
export const HooksFile = z.strictObject({ $schema: z.optional(z.string()), hooks: HooksConfig });

/** Claude Code's names for Pepe's tools, so a matcher written for it ("Bash", "Edit|Write") works too. */
const ALIASES: Record<string, string[]> = {
  bash: ['Bash'],
  run_script: ['Bash'],
  read_file: ['Read'],
  write_file: ['Write'],
  edit_file: ['Edit', 'MultiEdit'],
  list_dir: ['LS', 'Glob'],
  web_search: ['WebSearch'],
};

export function matches(matcher: string | undefined, tool: string | null): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (tool === null) return true;
  const re = new RegExp(`^(?:${matcher})$`);
  return [tool, ...(ALIASES[tool] ?? [])].some((n) => re.test(n));
}

/** One hook as it runs: where it came from, and its command. */
export interface HookEntry {
  event: HookEvent;
  matcher: string | undefined;
  command: string;
  timeoutS: number;
  /** "config.json" or ".pepe/hooks.json": named in what the person and the log see. */
  source: string;
  personal: boolean;
}

export function hookEntries(config: HooksConfig | undefined, source: string, personal: boolean): HookEntry[] {
  const out: HookEntry[] = [];
  for (const event of HOOK_EVENTS) {
    for (const m of config?.[event] ?? []) {
      for (const h of m.hooks) out.push({ event, matcher: m.matcher, command: h.command, timeoutS: h.timeout ?? DEFAULT_HOOK_TIMEOUT_S, source, personal });
    }
  }
  return out;
}

/** What a hook may answer on stdout (everything else in it is ignored). */
export const HookAnswer = lazySchema(() =>
  z.looseObject({
    decision: z.optional(z.enum(['approve', 'block'])),
    reason: z.optional(z.string()),
    hookSpecificOutput: z.optional(
      z.looseObject({
        permissionDecision: z.optional(z.enum(['allow', 'deny', 'ask'])),
        permissionDecisionReason: z.optional(z.string()),
        additionalContext: z.optional(z.string()),
        /** After a tool: the result is treated as outside content (it withdraws pre-approvals for the rest of the run). */
        outsideContent: z.optional(z.boolean()),
      }),
    ),
  }),
);
export type HookAnswer = z.infer<typeof HookAnswer>;
