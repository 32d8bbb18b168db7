// The smallest slot plugin: it claims the memory slot and finds nothing.
// Install: pepe plugin install example_memory.mjs
// Pin:     pepe slot set memory example_memory
export function name() {
  return 'example_memory';
}

export function slot() {
  return 'memory';
}

export function search(_agentName, _query, _opts) {
  return [];
}
