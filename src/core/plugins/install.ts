import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { PLUGIN_EXTENSIONS, type PluginInfo, type PluginRegistry } from './registry.js';

/**
 * `pepe plugin install PATH`: copies the module into the plugins folder after checking, in a
 * worker, that it loads and claims a slot. A file that does not load is not installed.
 */
export async function installPlugin(registry: PluginRegistry, source: string): Promise<PluginInfo> {
  const ext = extname(source);
  if (!(PLUGIN_EXTENSIONS as readonly string[]).includes(ext)) {
    throw new UsageError(`cannot install ${basename(source)}: a plugin is a .mjs, .js, .cjs or .ts file`);
  }
  await mkdir(registry.dir, { recursive: true });
  const target = join(registry.dir, basename(source));
  // Stage under a name discovery ignores, check it loads, then move it into place.
  const staged = `${target}.installing`;
  try {
    await copyFile(source, staged);
  } catch (e) {
    throw new UsageError(`cannot install ${source}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  try {
    const before = (await registry.list()).filter((p) => p.name && !p.error && p.file !== target);
    // Reinstalling a file of the same name replaces it, but only once the new one is known good.
    const previous = `${target}.previous`;
    const hadPrevious = await rename(target, previous).then(() => true, () => false);
    await rename(staged, target);
    const info = (await registry.list()).find((p) => p.file === target);
    const clash = info?.name ? before.find((p) => p.name === info.name) : undefined;
    if (!info || info.error || !info.name || clash) {
      await rm(target, { force: true });
      if (hadPrevious) await rename(previous, target);
      await registry.list();
      if (clash) throw new UsageError(`not installed: a plugin named "${info!.name}" is already installed (${basename(clash.file)}); remove it first`);
      throw new UsageError(`not installed: ${basename(source)} ${info?.error ?? 'did not load'}`);
    }
    if (hadPrevious) await rm(previous, { force: true });
    return info;
  } finally {
    await rm(staged, { force: true });
  }
}

export async function removePlugin(registry: PluginRegistry, name: string): Promise<PluginInfo> {
  const plugins = await registry.list();
  const match = plugins.find((p) => p.name === name && p.source === 'file') ?? plugins.find((p) => basename(p.file) === name);
  if (!match) throw new UsageError(`no installed plugin named "${name}"; see pepe plugin list`);
  await rm(match.file, { force: true });
  await registry.list();
  return match;
}
