import { isAbsolute, relative, resolve } from 'node:path';

export function resolveInWorkspace(workspace: string, path: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(workspace, path);
}

export function insideWorkspace(workspace: string, absolute: string): boolean {
  const rel = relative(workspace, absolute);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
