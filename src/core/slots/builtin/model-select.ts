import type { AgentConfig, PepeConfig } from '../../config/schema.js';
import type { ModelRef } from '../contracts.js';

/** Turns a model id (a `models` key, `mock`, `mock:<script>`, `vscode:<vendor>/<family>`) into a reference. */
export function modelRef(config: PepeConfig, id: string): ModelRef {
  const configured = config.models?.[id];
  if (configured) return { id, provider: configured.provider, model: configured.model, context_window: configured.context_window };
  if (id === 'mock' || id.startsWith('mock:')) return { id, provider: 'mock', model: id };
  if (id.startsWith('vscode:')) return { id, provider: 'vscode', model: id.slice('vscode:'.length) };
  return { id };
}

/** The built-in model_select occupant (spec 3.1): agent `model` / `model_chain`, else `default_model_chain`. */
export function staticChain(config: PepeConfig, agent: AgentConfig | undefined): ModelRef[] {
  const ids = agent?.model_chain ?? (agent?.model ? [agent.model] : config.default_model_chain ?? []);
  return ids.map((id) => modelRef(config, id));
}
