import type { PepeConfig } from '../config/schema.js';

/**
 * Whether an agent has a model that can answer, judged without a request (`pepe doctor`, the Agents
 * tree and Add Agent warn with it): its chain is `model_chain`, else `model`, else `default_model_chain`. A model
 * counts as usable when it is configured (or built in) and its key, if it needs one, is present in
 * `env` (the object the core reads keys from, SecretStorage overlaid). `vscode:` models are assumed
 * usable: asking would load the Language Model API. Kept free of runtime imports: the extension's
 * activation bundle uses it too.
 */
export function agentModelProblem(config: PepeConfig, agent: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const a = config.agents?.[agent];
  if (!a) return undefined;
  const chain = a.model_chain?.length ? a.model_chain : a.model ? [a.model] : (config.default_model_chain ?? []);
  if (!chain.length) return 'no model: it has none and default_model_chain is unset';
  const problems: string[] = [];
  for (const id of chain) {
    const problem = modelProblem(config, id, env);
    if (!problem) return undefined;
    problems.push(problem);
  }
  return `no usable model: ${problems.join('; ')}`;
}

export function modelProblem(config: PepeConfig, id: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const m = config.models?.[id];
  if (m) {
    if (m.provider === 'mock') return undefined;
    if (m.provider === 'openai-compatible' && !m.base_url) return `${id} has no base_url`;
    const keyEnv = m.api_key_env ?? (m.provider === 'openai' ? 'OPENAI_API_KEY' : m.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : undefined);
    if (keyEnv && !env[keyEnv]) return `no API key stored for ${keyEnv} (model ${id})`;
    return undefined;
  }
  if (id === 'mock' || id.startsWith('mock:') || id.startsWith('vscode:')) return undefined;
  return `unknown model "${id}"`;
}
