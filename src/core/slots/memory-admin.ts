import type { Builtins } from './builtin/index.js';
import { errorMessage } from '../errors.js';
import type { PluginRegistry } from '../plugins/registry.js';
import { withDeadline } from './deadline.js';
import type { MemoryIndexStatus } from './builtin/memory.js';
import type { SlotService } from './slot-service.js';

/** A memory plugin's index(agent) may take a while (embeddings); it still has an end. */
export const MEMORY_INDEX_DEADLINE_MS = 120_000;

/** `pepe memory status`: who answers an agent's memory searches, what it can do, and its index. */
export interface MemoryStatus {
  agent: string;
  /** The plugin name, or "builtin". */
  occupant: string;
  configured: string | null;
  /** When a configured plugin cannot answer, why (the built-in answers instead). */
  reason: string | null;
  can: { modes: string[]; reindex: boolean };
  /** The built-in's index in this process; null for a plugin (it keeps its own). */
  index: MemoryIndexStatus | null;
}

export interface MemoryReindexResult {
  agent: string;
  occupant: string;
  reindexed: boolean;
  detail: string;
  index: MemoryIndexStatus | null;
}

export interface MemoryAdminDeps {
  slots: SlotService;
  builtins: Builtins;
  registry: PluginRegistry;
}

export async function memoryStatus(deps: MemoryAdminDeps, agent: string): Promise<MemoryStatus> {
  const row = (await deps.slots.status({ agent })).find((s) => s.slot === 'memory')!;
  if (row.occupant === 'builtin') {
    return { agent, occupant: 'builtin', configured: row.configured, reason: row.reason, can: { modes: ['keyword'], reindex: true }, index: await deps.builtins.memory.status(agent) };
  }
  const plugin = await deps.registry.find(row.occupant);
  // A plugin's search is asked for keyword, vector or hybrid; it may serve only some (spec 3.2).
  return { agent, occupant: row.occupant, configured: row.configured, reason: null, can: { modes: ['keyword', 'vector', 'hybrid'], reindex: !!plugin?.functions.includes('index') }, index: null };
}

/**
 * `pepe memory reindex`: the built-in reads the agent's files again and indexes them; a plugin is
 * asked to `index(agent)` when it has that function, within a deadline, in its own process.
 */
export async function memoryReindex(deps: MemoryAdminDeps, agent: string): Promise<MemoryReindexResult> {
  const status = await memoryStatus(deps, agent);
  if (status.occupant === 'builtin') {
    const index = await deps.builtins.memory.reindex(agent);
    return { agent, occupant: 'builtin', reindexed: true, detail: `${index.entries} entries in ${index.files.length} file(s)`, index };
  }
  if (!status.can.reindex) return { agent, occupant: status.occupant, reindexed: false, detail: `plugin ${status.occupant} has no index() function; it keeps its index itself`, index: null };
  const plugin = (await deps.registry.find(status.occupant))!;
  try {
    const call = async () => {
      if (plugin.source === 'extension') {
        const p = deps.registry.inProcessPlugin(status.occupant);
        return (p?.index as ((a: string) => unknown) | undefined)?.call(p, agent);
      }
      const worker = deps.registry.workerFor(plugin.file);
      if (!worker) throw new Error(`plugin "${status.occupant}" is not loaded`);
      return worker.call('index', [agent], MEMORY_INDEX_DEADLINE_MS);
    };
    await withDeadline(call, MEMORY_INDEX_DEADLINE_MS, () => new Error(`no answer within ${MEMORY_INDEX_DEADLINE_MS} ms`));
    return { agent, occupant: status.occupant, reindexed: true, detail: `plugin ${status.occupant} re-indexed the agent's memory`, index: null };
  } catch (e) {
    return { agent, occupant: status.occupant, reindexed: false, detail: `plugin ${status.occupant} failed to index: ${errorMessage(e)}`, index: null };
  }
}
