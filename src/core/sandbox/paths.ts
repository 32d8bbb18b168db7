import { resolve, sep } from 'node:path';

/** True when `path` is `root` or inside it. */
export function within(path: string, root: string): boolean {
  const p = resolve(path);
  const r = resolve(root);
  return p === r || p.startsWith(r.endsWith(sep) ? r : r + sep);
}
