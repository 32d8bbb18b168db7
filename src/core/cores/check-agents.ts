import { resolve } from 'node:path';
import { checkCoreReport } from './load-core.js';
import type { Problem } from './problems.js';

/** One configured agent's core, checked. */
export interface AgentCoreCheck {
  agent: string;
  /** The core folder, resolved against PEPE_HOME as a turn resolves it. */
  dir: string;
  problems: Problem[];
  notes: Problem[];
}

/**
 * Checks the core of every configured agent that has one (`pepe doctor`, `pepe init --check`
 * without a folder). `loadModules: false` checks without running the modules' code (an untrusted
 * workspace); the default loads them to check their exports, as `pepe init --check DIR` does.
 */
export function checkAgentCores(agents: Record<string, { core?: string | null }>, home: string, options: { loadModules?: boolean } = {}): AgentCoreCheck[] {
  const out: AgentCoreCheck[] = [];
  for (const [agent, config] of Object.entries(agents)) {
    if (!config.core) continue;
    const dir = resolve(home, config.core);
    const { problems, notes } = checkCoreReport(dir, { loadModules: options.loadModules ?? true });
    out.push({ agent, dir, problems, notes });
  }
  return out;
}
