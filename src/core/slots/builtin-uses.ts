import type { PepeConfig } from '../config/schema.js';
import { sandboxViewSummary } from '../sandbox/home-view.js';
import { MEMORY_FILES } from './builtin/memory.js';
import { DEFAULT_WEB_SEARCH_ENDPOINT } from './builtin/web-search.js';
import type { SlotName } from './names.js';

/**
 * What a slot's built-in occupant uses, in a few words for `pepe slot list` and the Slots view.
 * An endpoint is shown without credentials or query string: a proxy's token stays in config.json.
 */
export function builtinUses(slot: SlotName, config: PepeConfig, confinement?: { confined: true; backend?: string } | { confined: false; reason: string }): string {
  switch (slot) {
    case 'memory':
      return `keyword search over ${MEMORY_FILES.join(', ')} in each agent's folder`;
    case 'web_search': {
      const endpoint = config.web_search?.endpoint;
      return endpoint && endpoint !== DEFAULT_WEB_SEARCH_ENDPOINT ? `Instant Answer API at ${shownEndpoint(endpoint)} (web_search.endpoint)` : `DuckDuckGo Instant Answer API (${DEFAULT_WEB_SEARCH_ENDPOINT})`;
    }
    case 'sandbox':
      if (!confinement) return config.sandbox?.wrapper ? `commands run through the wrapper ${config.sandbox.wrapper}` : 'commands run in the workspace';
      {
        const how = confinement.confined ? `confined by ${confinement.backend ?? 'the OS'} (${sandboxViewSummary(config.sandbox)})` : 'unconfined';
        return config.sandbox?.wrapper ? `commands run through the wrapper ${config.sandbox.wrapper}, ${how}` : `commands ${how}`;
      }
    case 'model_select':
      return "the agent's model_chain, else its model, else default_model_chain";
    case 'heartbeat_interval':
      return 'allows every due pulse';
    case 'compaction':
      return "summarises the middle of a long conversation with the turn's model";
    case 'harness':
      return "Pepe's own agent loop";
  }
}

/** scheme://host[:port]/path: no user, password, query or fragment. */
function shownEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(an invalid address)';
  }
}
