import { lstat, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Pepe } from '../../core/pepe.js';

/** What config.json's `$schema` says: the copy next to it, so it resolves wherever PEPE_HOME is. */
export const SCHEMA_REF = './config.schema.json';

/**
 * Makes the config JSON Schema apply wherever PEPE_HOME points. `contributes.jsonValidation` only
 * takes static globs (it covers `~/.pepe`), so Pepe keeps a copy of the schema next to config.json
 * (`config.schema.json`, refreshed when the extension's differs) and a relative `"$schema"` in
 * config.json, which VS Code's JSON support (and other editors) follow. `$schema` is added only
 * when Pepe writes config.json at a person's request (Add Model, Open config.json); a broken file
 * is left alone (the store refuses to write it). Returns true when config.json names the copy.
 */
export async function linkConfigSchema(pepe: Pepe, bundledSchema = BUNDLED_SCHEMA()): Promise<boolean> {
  await refreshSchemaCopy(pepe.paths.home, bundledSchema);
  if (!pepe.configSnapshot.exists || pepe.config.$schema) return pepe.config.$schema === SCHEMA_REF;
  await pepe.configLinkSchema(SCHEMA_REF);
  return true;
}

/**
 * Only the copy next to config.json, refreshed when the extension's schema differs (after an
 * update). Safe at start-up: config.json itself is written only on a person's request.
 */
export async function refreshSchemaCopy(home: string, bundledSchema = BUNDLED_SCHEMA()): Promise<void> {
  const schema = await readFile(bundledSchema, 'utf8');
  await mkdir(home, { recursive: true });
  const target = join(home, 'config.schema.json');
  // The home may sit in a repository someone else wrote: a link there is never written through.
  const existing = await lstat(target).catch(() => null);
  if (existing && !existing.isFile()) throw new Error(`${target} is not a regular file (a link?); Pepe leaves it alone`);
  if (existing && (await readFile(target, 'utf8')) === schema) return;
  // A fresh file renamed over the old one: rename replaces a link planted meanwhile, never its target.
  const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, schema, { flag: 'wx' });
  await rename(tmp, target).catch(async (e: unknown) => {
    await unlink(tmp).catch(() => undefined);
    throw e;
  });
}

/** dist/config.schema.json, next to the bundle this runs from. */
const BUNDLED_SCHEMA = () => join(__dirname, 'config.schema.json');
