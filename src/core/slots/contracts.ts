import * as z from '../zod.js';
import { lazySchema } from '../lazy-schema.js';
import type { AgentConfig, Tier } from '../config/schema.js';
import { Message } from '../messages.js';
import { ModelRef } from '../models/model-ref.js';
import type { SlotName } from './names.js';

/**
 * The slot contracts (spec 3.2): what each slot's functions return, as zod schemas the guard
 * validates plugin results against, and the TypeScript types plugin authors implement.
 */

export const MemoryHit = lazySchema(() =>
  z.object({
    file: z.string(),
    entry: z.string(),
    score: z.pipe(z.nullish(z.number()), z.transform((v) => v ?? null)),
    source: z.pipe(z.nullish(z.string()), z.transform((v) => v ?? null)),
  }),
);
export type MemoryHit = z.output<typeof MemoryHit>;

export const WebHit = lazySchema(() =>
  z.object({
    title: z.pipe(z.nullish(z.string()), z.transform((v) => v ?? null)),
    url: z.pipe(z.nullish(z.string()), z.transform((v) => v ?? null)),
    snippet: z.string(),
  }),
);
export type WebHit = z.output<typeof WebHit>;

export const SandboxResult = lazySchema(() => z.object({ output: z.string(), exitStatus: z.int() }));
export type SandboxResult = z.output<typeof SandboxResult>;

export { ModelRef };

export const HarnessResult = lazySchema(() => z.object({ content: z.string(), messages: z.array(Message) }));
export type HarnessResult = z.output<typeof HarnessResult>;

/** Validators for each slot's answering function (each built when a plugin first answers that slot). */
export const SLOT_RESULTS = {
  memory: lazySchema(() => z.array(MemoryHit)),
  web_search: lazySchema(() => z.array(WebHit)),
  sandbox: SandboxResult,
  model_select: lazySchema(() => z.array(ModelRef)),
  heartbeat_interval: lazySchema(() => z.boolean()),
  compaction: lazySchema(() => z.array(Message).check(z.minLength(1, { message: 'compaction must return messages, never an empty list' }))),
  harness: HarnessResult,
} satisfies Record<SlotName, z.ZodMiniType>;

export type SlotResult<S extends SlotName> = z.output<(typeof SLOT_RESULTS)[S]>;

/** The function a plugin must export to answer each slot, besides name() and slot(). */
export const SLOT_FUNCTION: Record<SlotName, string> = {
  memory: 'search',
  web_search: 'search',
  sandbox: 'run',
  model_select: 'chainFor',
  heartbeat_interval: 'allowed',
  compaction: 'compact',
  harness: 'run',
};

/** Default deadlines per slot (spec 3.3); `slot_deadlines_ms` in config.json overrides them. */
export const DEFAULT_DEADLINE_MS: Record<SlotName, number> = {
  memory: 3_000,
  web_search: 20_000,
  model_select: 2_000,
  heartbeat_interval: 1_000,
  compaction: 60_000,
  // The sandbox's real deadline is each call's timeoutMs; this is only the safety ceiling.
  sandbox: 300_000,
  harness: 600_000,
};

/** What happens when a plugin occupant fails (spec 3.3). */
export const FAILURE_POLICY: Record<SlotName, 'fallback' | 'refuse' | 'error'> = {
  memory: 'fallback',
  web_search: 'fallback',
  model_select: 'fallback',
  heartbeat_interval: 'fallback',
  compaction: 'fallback',
  sandbox: 'refuse',
  harness: 'error',
};

// ---- Types for plugin authors (published in docs/plugins.md) ----

export interface UsageContext {
  usageTier(project?: string | null): Tier;
}

export interface PluginBase<S extends SlotName> {
  name(): string;
  slot(): S;
}
type MaybePromise<T> = T | Promise<T>;

export interface MemoryPlugin extends PluginBase<'memory'> {
  search(agentName: string, query: string, opts: { limit?: number; mode?: 'keyword' | 'vector' | 'hybrid' }): MaybePromise<z.input<typeof MemoryHit>[]>;
  index?(agentName: string): MaybePromise<void>;
}
export interface WebSearchPlugin extends PluginBase<'web_search'> {
  search(query: string, opts: { limit?: number }): MaybePromise<z.input<typeof WebHit>[]>;
}
export interface SandboxPlugin extends PluginBase<'sandbox'> {
  run(program: string, argv: string[], opts: { cwd: string; env: Record<string, string>; timeoutMs: number }): MaybePromise<SandboxResult>;
}
export interface ModelSelectPlugin extends PluginBase<'model_select'> {
  chainFor(agent: AgentConfig & { name: string }, ctx: UsageContext): MaybePromise<ModelRef[]>;
}
export interface HeartbeatIntervalPlugin extends PluginBase<'heartbeat_interval'> {
  allowed(project: string | null, ctx: UsageContext): MaybePromise<boolean>;
}
export interface CompactionPlugin extends PluginBase<'compaction'> {
  compact(messages: Message[], model: ModelRef, agent: (AgentConfig & { name: string }) | null, sessionKey: string | null): MaybePromise<Message[]>;
}
export interface HarnessOptsBase {
  onEvent?: (event: { type: string; [k: string]: unknown }) => void;
  signal?: AbortSignal;
}
export interface HarnessPlugin extends PluginBase<'harness'> {
  run(agent: AgentConfig & { name: string }, messages: Message[], opts: HarnessOptsBase): MaybePromise<HarnessResult>;
}

export type SlotPlugin =
  | MemoryPlugin
  | WebSearchPlugin
  | SandboxPlugin
  | ModelSelectPlugin
  | HeartbeatIntervalPlugin
  | CompactionPlugin
  | HarnessPlugin;
