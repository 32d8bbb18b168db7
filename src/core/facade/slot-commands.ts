import type { PepeConfig } from '../config/schema.js';
import { clearSlot, setSlot, type SlotTarget } from '../config/edits.js';
import { UsageError } from '../errors.js';
import type { Message } from '../messages.js';
import type { PluginRegistry } from '../plugins/registry.js';
import { estimateTokens } from '../runtime/compaction.js';
import { scrubEnv } from '../secrets/scrub.js';
import { candidatesFor } from '../slots/availability.js';
import type { Builtins } from '../slots/builtin/index.js';
import { staticChain } from '../slots/builtin/model-select.js';
import { DEFAULT_SANDBOX_TIMEOUT_MS } from '../slots/builtin/sandbox.js';
import { memoryReindex, memoryStatus, type MemoryReindexResult, type MemoryStatus } from '../slots/memory-admin.js';
import { isSlotName, SLOT_NAMES, type SlotName } from '../slots/names.js';
import { namesBuiltin, projectOf, type ResolveTarget } from '../slots/resolve.js';
import { SandboxRefusedError, type SlotAnswer, type SlotOverview, type SlotService, type SlotStatus } from '../slots/slot-service.js';

export interface SlotTestInput {
  agent?: string;
  project?: string;
  query?: string;
  command?: string[];
}

/** What `pepe slot test` prints. A refused sandbox call has `refused` set and `result` null. */
export type SlotTestResult = Omit<SlotAnswer<unknown>, 'result'> & { result: unknown; refused?: string };

/** What the slot commands need of the facade that owns them. */
export interface SlotCommandDeps {
  config(): PepeConfig;
  slots: SlotService;
  registry: PluginRegistry;
  builtins: Builtins;
  env: NodeJS.ProcessEnv;
  workspace: string;
  /** A named edit of config.json under the store's lock, then a reload. */
  edit<T>(mutate: (raw: Record<string, unknown>, current: PepeConfig) => T): Promise<T>;
}

/**
 * The facade's slot and memory commands (`pepe slot …`, `pepe memory …`, the Slots view): each
 * resolves and guards exactly as a turn does, and reports who answered.
 */
export class SlotCommands {
  constructor(private readonly deps: SlotCommandDeps) {}

  private get config(): PepeConfig {
    return this.deps.config();
  }

  slotList(target: ResolveTarget = {}): Promise<SlotStatus[]> {
    this.assertTarget(target);
    return this.deps.slots.status(target);
  }

  /** Every slot with its project and agent overrides, each resolved for its scope (one query for a host's tree). */
  slotOverview(): Promise<SlotOverview[]> {
    return this.deps.slots.overview();
  }

  async slotSet(slot: string, plugin: string, target: SlotTarget = {}): Promise<void> {
    const name = this.slotName(slot);
    this.assertTarget(target);
    const plugins = await this.deps.registry.list();
    const { eligible } = candidatesFor(name, plugins);
    // "default" pins the built-in at this scope (install-wide, the same as clearing the slot).
    if (!namesBuiltin(plugin) && !eligible.some((p) => p.name === plugin)) {
      const installed = plugins.find((p) => p.name === plugin && !p.error);
      const why = installed ? `plugin "${plugin}" claims slot "${installed.slot}", not "${name}"` : `no installed plugin is named "${plugin}"`;
      const offer = eligible.length ? `plugins that claim ${name}: ${eligible.map((p) => p.name).join(', ')}` : `no installed plugin claims ${name}; install one with pepe plugin install PATH`;
      throw new UsageError(`${why}; ${offer}`);
    }
    await this.deps.edit((raw) => setSlot(raw, name, plugin, target));
    this.deps.slots.clearRecord(name, 'set');
  }

  async slotClear(slot: string, target: SlotTarget = {}): Promise<string | null> {
    const name = this.slotName(slot);
    this.assertTarget(target);
    const previous = await this.deps.edit((raw) => clearSlot(raw, name, target));
    this.deps.slots.clearRecord(name, 'clear');
    return previous;
  }

  /** Calls a slot exactly as the runtime will (resolution + guard) and reports who answered. */
  async slotTest(slot: string, input: SlotTestInput = {}): Promise<SlotTestResult> {
    const name = this.slotName(slot);
    this.assertTarget(input);
    const agent = input.agent ?? null;
    const agentConfig = agent ? this.config.agents?.[agent] ?? {} : {};
    const needQuery = () => {
      if (!input.query) throw new UsageError(`slot test ${name} needs --query TEXT`);
      return input.query;
    };
    switch (name) {
      case 'memory':
        return this.deps.slots.memorySearch(agent ?? 'default', needQuery(), { limit: 20 });
      case 'web_search':
        return this.deps.slots.webSearch(agent, needQuery(), { limit: 10 });
      case 'sandbox': {
        const [program, ...argv] = input.command ?? [];
        if (!program) throw new UsageError('slot test sandbox needs a command after --, e.g. pepe slot test sandbox -- env');
        // Exactly as a turn runs a command: in the workspace, with the same environment and limits.
        const opts = { cwd: this.deps.workspace, workspace: this.deps.workspace, env: scrubEnv(this.deps.env, this.config), timeoutMs: this.config.sandbox?.timeout_ms ?? DEFAULT_SANDBOX_TIMEOUT_MS };
        try {
          return await this.deps.slots.sandboxRun(agent, program, argv, opts);
        } catch (e) {
          if (!(e instanceof SandboxRefusedError)) throw e;
          return { slot: name, occupant: e.occupant, answeredBy: 'none (refused)', fallback: e.fallback, durationMs: e.durationMs, result: null, refused: e.message };
        }
      }
      case 'model_select':
        return this.deps.slots.modelChain(agent ?? 'default', agentConfig);
      case 'heartbeat_interval':
        return this.deps.slots.heartbeatAllowed(agent, projectOf(this.config, input));
      case 'compaction': {
        // The built-in summarises the way a turn does, with the agent's first model. The sample
        // conversation is said to fill that model's window, so a turn would condense it now.
        const messages = sampleConversation();
        const first = staticChain(this.config, agent ? this.config.agents?.[agent] : undefined)[0] ?? { id: 'mock', provider: 'mock', model: 'mock' };
        const model = { ...first, context_window: estimateTokens(messages) };
        return this.deps.slots.compact(agent, { messages, model, agentConfig: agent ? agentConfig : null, sessionKey: null });
      }
      case 'harness':
        throw new UsageError('the harness answers whole turns, not single calls: test it with pepe run AGENT "hello"');
    }
  }

  /** Who answers each agent's memory searches (or one agent's), what it can do, its index. */
  async memoryStatus(agent?: string): Promise<MemoryStatus[]> {
    const deps = { slots: this.deps.slots, builtins: this.deps.builtins, registry: this.deps.registry };
    return Promise.all(this.memoryAgents(agent).map((a) => memoryStatus(deps, a)));
  }

  /** Rebuilds each agent's memory index (or one agent's) through its occupant. */
  async memoryReindex(agent?: string): Promise<MemoryReindexResult[]> {
    const deps = { slots: this.deps.slots, builtins: this.deps.builtins, registry: this.deps.registry };
    const out: MemoryReindexResult[] = [];
    for (const a of this.memoryAgents(agent)) out.push(await memoryReindex(deps, a));
    return out;
  }

  private memoryAgents(agent?: string): string[] {
    if (agent) {
      this.assertTarget({ agent });
      return [agent];
    }
    return Object.keys(this.config.agents ?? {});
  }

  slotName(slot: string): SlotName {
    if (!isSlotName(slot)) throw new UsageError(`unknown slot "${slot}"; the slots are: ${SLOT_NAMES.join(', ')}`);
    return slot;
  }

  assertTarget(target: { agent?: string | null; project?: string | null }): void {
    if (target.agent && !this.config.agents?.[target.agent]) throw new UsageError(`unknown agent "${target.agent}"; see pepe agent list`);
  }
}

function sampleConversation(): Message[] {
  const messages: Message[] = [{ role: 'system', content: 'You are a test agent.' }];
  for (let i = 1; i <= 15; i++) {
    messages.push({ role: 'user', content: `question ${i}` }, { role: 'assistant', content: `answer ${i}` });
  }
  return messages;
}
