import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { restrictedCore } from './base-slots.js';
import { noGrants, parseCoreGrants, slotGrantsFrom, type CoreGrants } from './core-grants.js';
import type { LoadedCore, LoadedSlot } from './loaded-core.js';
import { parseManifest, splitEntrypoint } from './manifest.js';
import { CoreModuleLoader, MODULE_EXTENSIONS, ModuleLoadError, resolveFile } from './module-loader.js';
import { PHASES, parsePipelines, type Phase, type Pipelines } from './pipelines.js';
import { CoreLoadError, problemAtStart, sortProblems, type Problem } from './problems.js';
import type { SlotContext } from './sdk-types.js';
import { CoreProcess, type CoreIsolation, type RemoteSlot } from './core-process.js';
import { transpileUserModule } from '../user-module.js';

export const DEFAULT_SURFACE_ROOT = 'agent';
const SLOT_ID = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

export interface CheckOptions {
  /** Folder of the authored surface inside the core (default `agent`). */
  surfaceRoot?: string;
  /**
   * Load the modules to check that each entrypoint's export exists (default true). Loading runs
   * the modules' top-level code: pass false for an untrusted workspace, which checks everything
   * else (the module file must still exist).
   */
  loadModules?: boolean;
}

export interface LoadOptions {
  surfaceRoot?: string;
  /**
   * False in an untrusted workspace (VS Code Workspace Trust): nothing of the core is read or
   * run, and the result is a restricted core with Pepe's built-in base_input/base_output only.
   */
  trusted?: boolean;
  /**
   * Run the modules out of process (spec 3.3): nothing of them runs in this process, not even
   * their top-level code; a missing or non-function export is then reported when the slot runs.
   */
  isolate?: CoreIsolation;
}

export const UNTRUSTED_REASON =
  'the workspace is not trusted, so the agent core\'s modules (code) were not loaded; only base_input/base_output ran. Trust the workspace to run the core.';

/** Every problem of the core at `dir`, sorted by file and line (empty when it is valid). */
export function checkCore(dir: string, options: CheckOptions = {}): Problem[] {
  return inspectCore(dir, options).problems;
}

/** Problems, and notes about things skipped that are not errors (a folder without slot.yaml). */
export function checkCoreReport(dir: string, options: CheckOptions = {}): { problems: Problem[]; notes: Problem[] } {
  const { problems, notes } = inspectCore(dir, options);
  return { problems, notes };
}

/** Loads the core at `dir`; throws CoreLoadError listing every problem. */
export function loadCore(dir: string, options: LoadOptions = {}): LoadedCore {
  const root = resolve(dir);
  const surfaceRoot = join(root, options.surfaceRoot ?? DEFAULT_SURFACE_ROOT);
  if (options.trusted === false) return restrictedCore(root, surfaceRoot, UNTRUSTED_REASON);
  const { core, problems } = inspectCore(root, { surfaceRoot: options.surfaceRoot, loadModules: true, isolate: options.isolate });
  if (!core || problems.length) {
    core?.dispose?.();
    throw new CoreLoadError(root, problems);
  }
  return core;
}

function inspectCore(dir: string, options: CheckOptions & { isolate?: CoreIsolation }): { core: LoadedCore | null; problems: Problem[]; notes: Problem[] } {
  const root = resolve(dir);
  const surfaceRoot = join(root, options.surfaceRoot ?? DEFAULT_SURFACE_ROOT);
  const pipelinesFile = join(surfaceRoot, 'pipelines.yaml');
  const problems: Problem[] = [];
  const notes: Problem[] = [];
  if (!isDir(root)) return { core: null, problems: [problemAtStart(root, `no agent core here: ${root} is not a folder (create one with: pepe init ${dir})`)], notes };
  if (!isDir(surfaceRoot)) {
    return { core: null, problems: [problemAtStart(pipelinesFile, `no agent core here: ${surfaceRoot} is missing (create one with: pepe init ${dir})`)], notes };
  }
  let coreGrants: CoreGrants = noGrants();
  const agentYaml = join(root, 'agent.yaml');
  if (isFile(agentYaml)) {
    const parsed = parseCoreGrants(agentYaml, readFileSync(agentYaml, 'utf8'));
    problems.push(...parsed.problems);
    coreGrants = parsed.grants;
  }
  const owner = new Map<string, Phase>();

  const loadModules = options.loadModules !== false && !options.isolate;
  const loader = new CoreModuleLoader(surfaceRoot);
  // Out of process: the modules are transpiled here (syntax errors are problems) and run there.
  const remote = options.isolate ? remoteFiles(surfaceRoot, problems) : null;
  const remoteSlots: Record<string, RemoteSlot> = {};
  const remoteEntries: { key: string; slot: LoadedSlot }[] = [];
  const slots: Record<Phase, Map<string, LoadedSlot>> = { bootstrap: new Map(), input: new Map(), output: new Map() };
  const known: Record<Phase, Set<string>> = { bootstrap: new Set(), input: new Set(), output: new Set() };

  for (const phase of PHASES) {
    const phaseDir = join(surfaceRoot, phase);
    if (!isDir(phaseDir)) continue;
    for (const name of readdirSync(phaseDir).sort()) {
      const slotDir = join(phaseDir, name);
      if (name.startsWith('.') || !isDir(slotDir)) continue;
      const manifestFile = join(slotDir, 'slot.yaml');
      // A folder without slot.yaml is not a slot (upstream keeps helpers and configuration so).
      if (!existsSync(manifestFile)) {
        notes.push(problemAtStart(slotDir, `skipped ${phase}/${name}/: no slot.yaml, so it is not a slot (add one to make it a slot)`));
        continue;
      }
      known[phase].add(name);
      if (!SLOT_ID.test(name)) {
        problems.push(problemAtStart(manifestFile, `slot folder name "${name}" is not a valid slot id (letters, digits, _ and -)`));
        continue;
      }
      const other = owner.get(name);
      if (other) {
        problems.push(problemAtStart(manifestFile, `slot id "${name}" is also ${other === 'input' ? 'an' : 'a'} ${other} slot (agent/${other}/${name}/); a slot id must be unique across bootstrap, input and output`));
        continue;
      }
      owner.set(name, phase);
      const parsed = parseManifest(manifestFile, readFileSync(manifestFile, 'utf8'));
      problems.push(...parsed.problems);
      if (!parsed.manifest) continue;
      const { stem, exportName } = splitEntrypoint(parsed.manifest.entrypoint);
      const moduleFile = findModule(root, slotDir, stem);
      if (typeof moduleFile !== 'string') {
        problems.push(parsed.entrypointAt(moduleFile.problem));
        continue;
      }
      let entry: LoadedSlot['entry'] = () => undefined;
      if (loadModules) {
        let mod: Record<string, unknown>;
        try {
          mod = loader.load(moduleFile);
        } catch (e) {
          if (e instanceof ModuleLoadError) problems.push({ file: e.file, line: e.line, column: e.column, message: `cannot load module: ${e.message}` });
          else problems.push(problemAtStart(moduleFile, `cannot load module: ${String(e)}`));
          continue;
        }
        const fn = mod[exportName];
        if (typeof fn !== 'function') {
          const exported = Object.keys(mod).filter((k) => k !== '__esModule');
          problems.push(
            parsed.entrypointAt(
              fn === undefined
                ? `entrypoint "${parsed.manifest.entrypoint}": ${relative(slotDir, moduleFile) || moduleFile} has no export "${exportName}" (it exports: ${exported.join(', ') || 'nothing'})`
                : `entrypoint "${parsed.manifest.entrypoint}": export "${exportName}" is a ${typeof fn}, not a function`,
            ),
          );
          continue;
        }
        entry = fn as (ctx: SlotContext) => unknown;
      }
      const slotPath = relative(root, slotDir).split(sep).join('/');
      const grants = slotGrantsFrom(parsed.manifest.capabilities, coreGrants, slotPath);
      const loaded: LoadedSlot = { id: name, phase, dir: slotDir, manifestFile, manifest: parsed.manifest, moduleFile, entry, builtin: false, slotPath, grants };
      if (remote) {
        remoteSlots[`${phase}/${name}`] = { file: moduleFile, exportName };
        remoteEntries.push({ key: `${phase}/${name}`, slot: loaded });
      }
      slots[phase].set(name, loaded);
    }
  }

  let pipelines: Pipelines | null = null;
  if (!existsSync(pipelinesFile)) {
    problems.push(problemAtStart(pipelinesFile, 'missing pipelines.yaml: it is required (schema_version: 1 and the bootstrap/input/output lists)'));
  } else {
    const parsed = parsePipelines(pipelinesFile, readFileSync(pipelinesFile, 'utf8'), known);
    problems.push(...parsed.problems);
    pipelines = parsed.pipelines;
  }
  const sorted = sortProblems(problems);
  if (!pipelines || sorted.length) return { core: null, problems: sorted, notes };
  const revision = createHash('sha256').update(coreStamp(root, options.surfaceRoot)).digest('hex').slice(0, 12);
  const base = { dir: root, surfaceRoot, pipelines, slots, restricted: null, revision, skills: coreSkills(surfaceRoot) };
  if (!remote || !options.isolate) return { core: base, problems: [], notes };
  const coreProcess = new CoreProcess(surfaceRoot, remote, remoteSlots, options.isolate);
  for (const { key, slot } of remoteEntries) slot.entry = coreProcess.entry(key, { capabilities: slot.grants ?? slot.manifest.capabilities, manifestFile: slot.manifestFile });
  coreProcess.warm();
  return { core: { ...base, dispose: () => coreProcess.dispose() }, problems: [], notes };
}

/** The core's own skills: `agent/skills/<name>/SKILL.md` (or `agent/skills/<name>.md`), name → text. */
function coreSkills(surfaceRoot: string): Record<string, string> {
  const dir = join(surfaceRoot, 'skills');
  const out: Record<string, string> = {};
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    const file = isDir(join(dir, name)) ? join(dir, name, 'SKILL.md') : name.endsWith('.md') ? join(dir, name) : null;
    if (!file || !isFile(file)) continue;
    const text = readFileSync(file, 'utf8').trim();
    if (text) out[name.replace(/\.md$/, '')] = text;
  }
  return out;
}

/** Every module and JSON file of the surface, transpiled for the core process; transpile errors become problems. */
function remoteFiles(surfaceRoot: string, problems: Problem[]): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const p = join(d, name);
      if (isDir(p)) walk(p);
      else if (isFile(p) && [...MODULE_EXTENSIONS, '.json'].some((ext) => p.endsWith(ext)) && !p.endsWith('.d.ts')) {
        const source = readFileSync(p, 'utf8');
        try {
          files[p] = p.endsWith('.json') ? source : transpileUserModule(p, source);
        } catch (e) {
          const loc = (e as { loc?: { line?: number; column?: number } }).loc;
          problems.push({ file: p, line: loc?.line ?? 1, column: (loc?.column ?? 0) + 1, message: `cannot load module: ${String((e as Error).message ?? e).replace(/^Error transforming [^:]+: /, '')}` });
        }
      }
    }
  };
  walk(surfaceRoot);
  return files;
}

const PORTING =
  'Pepe runs JavaScript/TypeScript slot modules, not Python: port it to module.ts next to it, exporting the entrypoint function (export async function process(ctx: PepeCore.InputContext) { … }); ctx names become camelCase (ctx.input.add_context → ctx.input.addContext, ctx.output.send_text → ctx.output.sendText). `pepe init DIR` writes an example';

/**
 * The module an entrypoint stem names: `<slot>/<stem>.{ts,js,mjs,cjs}`; a dotted stem
 * (`helpers.main`) is a path in the slot folder (`helpers/main.ts`), as a Python dotted module
 * path would be; a stem with a `/` is relative to the core folder.
 */
function findModule(root: string, slotDir: string, stem: string): string | { problem: string } {
  const python = (base: string) => {
    const py = base.endsWith('.py') ? base : `${base}.py`;
    return isFile(py) ? { problem: `entrypoint module ${relative(root, py)} is Python. ${PORTING}` } : null;
  };
  if (stem.includes('/')) {
    const py = python(resolve(root, stem));
    if (py) return py;
    const file = resolveFile(resolve(root, stem));
    if (!file) return { problem: `entrypoint module "${stem}" not found (a path with "/" is relative to the core folder ${root})` };
    const rel = relative(root, file);
    if (rel.startsWith('..') || rel.startsWith(sep)) return { problem: `entrypoint module "${stem}" is outside the core folder` };
    return file;
  }
  const stems = stem.includes('.') ? [stem, stem.split('.').join('/')] : [stem];
  for (const s of stems) {
    for (const ext of MODULE_EXTENSIONS) {
      const file = join(slotDir, s + ext);
      if (isFile(file)) return file;
    }
  }
  for (const s of stems) {
    const py = python(join(slotDir, s));
    if (py) return py;
  }
  const tried = stems.flatMap((s) => MODULE_EXTENSIONS.map((e) => s + e));
  return { problem: `entrypoint module "${stem}" not found in the slot folder (looked for ${tried.join(', ')})` };
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * A cheap fingerprint of the core's files (paths, sizes, modification times): cache a LoadedCore
 * under it and call loadCore again only when it changes (loading re-runs the modules' top-level code).
 */
export function coreStamp(dir: string, surfaceRoot = DEFAULT_SURFACE_ROOT): string {
  const parts: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      try {
        const s = statSync(p);
        if (s.isDirectory()) walk(p);
        else parts.push(`${p}:${s.size}:${s.mtimeMs}`);
      } catch {
        // vanished while walking
      }
    }
  };
  walk(join(resolve(dir), surfaceRoot));
  // The core's agent.yaml grants capabilities: a change to it is a change to the core.
  try {
    const file = join(resolve(dir), 'agent.yaml');
    const st = statSync(file);
    parts.push(`${file}:${st.size}:${st.mtimeMs}`);
  } catch {
    // no agent.yaml
  }
  return parts.join('|');
}
