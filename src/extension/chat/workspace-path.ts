import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * A path the chat was given (a tool's arguments: the model's; a drop: the page's) judged where it
 * really leads: resolved against the workspace, every link followed, and refused unless it is
 * inside the workspace. A path that no longer exists (a file the turn deleted) is judged by its
 * nearest existing folder, links in it followed.
 */
export async function insideWorkspace(workspace: string, path: string): Promise<{ real: string; rel: string }> {
  const root = await realpath(workspace);
  const abs = resolve(workspace, path);
  const real = await realOf(abs);
  const rel = relative(root, real);
  if (!rel || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new Error(`${path} is not inside the workspace`);
  return { real, rel };
}

async function realOf(abs: string): Promise<string> {
  try {
    return await realpath(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(await realOf(parent), basename(abs));
  }
}
