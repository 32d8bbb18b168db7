/**
 * The layers of src/core (docs/architecture.md), lowest first, and the checker that holds the
 * import graph to them: a module may import its own layer or a lower one, never a higher one, and
 * the folders (each file at the root of src/core counts as its own unit) form no cycle, not even
 * inside one layer. Type-only imports count: they couple the layers just the same.
 */

export interface Layer {
  name: string;
  /** Paths relative to src/core: `name/` for a folder, `name.ts` for a file at the root. */
  members: string[];
}

export const CORE_LAYERS: Layer[] = [
  {
    name: 'leaves',
    members: [
      'errors.ts', 'paths.ts', 'messages.ts', 'images.ts', 'jsonl.ts', 'events.ts', 'core-events.ts', 'doctor-finding.ts',
      'display.ts', 'session-title.ts', 'chat-command.ts', 'user-module.ts', 'context-attachment-limits.ts', 'lazy-schema.ts', 'zod.ts', 'random-id.ts', 'file-lock.ts', 'code-unit-order.ts', 'sandbox/',
    ],
  },
  { name: 'config', members: ['config/', 'agent-intro.ts'] },
  { name: 'services', members: ['models/', 'plugins/', 'checkpoints/', 'secrets/', 'log.ts'] },
  { name: 'slots and cores', members: ['slots/', 'cores/', 'interop/'] },
  { name: 'tools', members: ['tools/', 'context-attachments.ts'] },
  { name: 'permissions, mcp, routing', members: ['permissions/', 'mcp/', 'routing/'] },
  { name: 'runtime', members: ['runtime/', 'tasks/'] },
  { name: 'facade', members: ['pepe.ts', 'facade/', 'doctor.ts', 'grant-controls.ts'] },
];

/** What the checker needs of a cruise result's modules (dependency-cruiser's `modules`). */
export interface GraphModule {
  source: string;
  dependencies: { resolved: string }[];
}

/** The unit of a path under `root` (a folder's name with `/`, or a root file's name), or null outside it. */
export function unitOf(path: string, root = 'src/core/'): string | null {
  if (!path.startsWith(root)) return null;
  const rest = path.slice(root.length);
  const slash = rest.indexOf('/');
  return slash === -1 ? rest : rest.slice(0, slash + 1);
}

/**
 * Every break of the layer rule in the graph, worded one per line:
 * `unplaced: unit` (a unit in no layer), `upward: a (layer) → b (layer)` per import, and
 * `folder-cycle (among a, b, …): a → b → … → a` per strongly connected set of units (one cycle
 * through it as the example).
 */
export function layerViolations(modules: readonly GraphModule[], layers: readonly Layer[] = CORE_LAYERS, root = 'src/core/'): string[] {
  const rank = new Map<string, number>();
  layers.forEach((l, i) => l.members.forEach((m) => rank.set(m, i)));
  const out: string[] = [];
  const unplaced = new Set<string>();
  const edges = new Map<string, Set<string>>();
  for (const m of modules) {
    const from = unitOf(m.source, root);
    if (from === null) continue;
    if (!rank.has(from)) unplaced.add(from);
    for (const d of m.dependencies) {
      const to = unitOf(d.resolved, root);
      if (to === null || to === from) continue;
      if (!rank.has(to)) unplaced.add(to);
      (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
      const a = rank.get(from), b = rank.get(to);
      if (a !== undefined && b !== undefined && b > a) out.push(`upward: ${m.source} (${layers[a]!.name}) → ${d.resolved} (${layers[b]!.name})`);
    }
  }
  for (const u of unplaced) out.push(`unplaced: ${root}${u}`);
  for (const { members, cycle } of cycles(edges)) out.push(`folder-cycle (among ${members.map((u) => root + u).join(', ')}): ${[...cycle, cycle[0]].map((u) => root + u).join(' → ')}`);
  return [...new Set(out)].sort();
}

/** The strongly connected sets of more than one unit (Tarjan), each with a cycle through it. */
function cycles(edges: Map<string, Set<string>>): { members: string[]; cycle: string[] }[] {
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], on = new Set<string>();
  const found: { members: string[]; cycle: string[] }[] = [];
  const visit = (v: string): void => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const set: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); set.push(w); } while (w !== v);
      if (set.length > 1) found.push({ members: set.sort(), cycle: pathThrough(new Set(set), edges) });
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** A cycle inside a strongly connected set, from its first unit by name back to it (breadth first). */
function pathThrough(set: Set<string>, edges: Map<string, Set<string>>): string[] {
  const start = [...set].sort()[0]!;
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of [...(edges.get(v) ?? [])].sort()) {
      if (!set.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0]!)!);
        return path;
      }
      if (!prev.has(w)) { prev.set(w, v); queue.push(w); }
    }
  }
  return [...set].sort();
}
