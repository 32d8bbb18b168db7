import { mkdir, readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type * as z from '../zod.js';
import { ConfigError } from '../errors.js';
import { withFileLock } from '../file-lock.js';
import { PepeConfig } from './schema.js';
import { describeIssue, describeParseError } from './problems.js';
import { setAsideBroken, type SectionProblem } from './sections.js';
import { unknownKeys } from './unknown-keys.js';

/** What is on disk: the raw document (unknown keys and all) and its validated view. */
export interface ConfigSnapshot {
  exists: boolean;
  /** The parsed JSON exactly as written; mutations work on a copy of this so unknown keys survive. */
  raw: Record<string, unknown>;
  config: PepeConfig;
  /** Dotted paths of keys Pepe does not know (kept on write, reported by doctor). */
  unknown: string[];
  /**
   * Sections set aside because they are invalid (they take their defaults; the rest applies).
   * Writes stay refused while any is listed: the file is never overwritten.
   */
  setAside: SectionProblem[];
}

export type ConfigMutator<T> = (raw: Record<string, unknown>, current: PepeConfig) => T;

/**
 * Reads and writes config.json (spec 2): zod-validated, never overwritten when broken,
 * atomic writes (temp file + fsync + rename), and a cross-process lock so two writers
 * (CLI and extension, two windows) re-read and merge instead of losing each other's changes.
 */
export class ConfigStore {
  constructor(readonly file: string) {}

  async read(): Promise<ConfigSnapshot> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false, raw: {}, config: {}, unknown: [], setAside: [] };
      throw new ConfigError(`${this.file}: cannot read: ${(e as Error).message}`, this.file);
    }
    return this.parse(text);
  }

  parse(text: string): ConfigSnapshot {
    const name = basename(this.file);
    let raw: unknown;
    try {
      raw = text.trim() === '' ? {} : JSON.parse(text);
    } catch (e) {
      const msg = `${this.file}: ${describeParseError(text, e as Error)}. Fix the JSON syntax; Pepe left the file unchanged.`;
      throw new ConfigError(msg, this.file);
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new ConfigError(`${this.file}: the top level must be a JSON object ({ … }). Pepe left the file unchanged.`, this.file);
    }
    const parsed = PepeConfig.safeParse(raw);
    if (parsed.success) return { exists: true, raw: raw as Record<string, unknown>, config: parsed.data, unknown: unknownKeys(raw), setAside: [] };
    const contained = setAsideBroken(raw as Record<string, unknown>, parsed.error.issues);
    const reparsed = contained && PepeConfig.safeParse(contained.doc);
    if (!contained || !reparsed?.success) throw this.invalid(name, parsed.error);
    return { exists: true, raw: raw as Record<string, unknown>, config: reparsed.data, unknown: unknownKeys(raw), setAside: contained.setAside };
  }

  /**
   * Applies `mutate` to the current document under the lock and writes the result atomically.
   * A file that fails to parse or validate is never overwritten: the error is thrown instead.
   */
  async update<T>(mutate: ConfigMutator<T>): Promise<T> {
    await mkdir(dirname(this.file), { recursive: true });
    const options = { stale: 5000, update: 1000, retries: { retries: 400, factor: 1.2, minTimeout: 5, maxTimeout: 100, randomize: true } };
    return withFileLock(`${this.file}.lock`, options, async (lock) => {
      const current = await this.read();
      if (current.setAside.length) throw this.invalid(basename(this.file), PepeConfig.safeParse(current.raw).error!);
      const draft = structuredClone(current.raw);
      const result = mutate(draft, current.config);
      const checked = PepeConfig.safeParse(draft);
      if (!checked.success) throw this.invalid(basename(this.file), checked.error, 'the change would make');
      // Stalled past `stale` (a suspended laptop): another writer may have the lock and a newer file.
      if (!(await lock.verify())) throw new ConfigError(`${this.file}: the change took too long and another writer may have changed the file since; nothing was written. Try again.`, this.file);
      await writeFileAtomic(this.file, JSON.stringify(draft, null, 2) + '\n', { fsync: true });
      return result;
    });
  }

  private invalid(name: string, error: z.core.$ZodError, lead = ''): ConfigError {
    const problems = error.issues.map((i) => describeIssue(i));
    const head = lead ? `${this.file}: ${lead} ${name} invalid: ` : `${this.file}: `;
    const suffix = lead ? ' Nothing was written.' : ' Pepe left the file unchanged.';
    return new ConfigError(head + problems.join('; ') + suffix, this.file, problems);
  }
}
