import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { checkCore, parseCoreGrants, parseManifest, parsePipelines, PHASES, type Phase, type Problem } from '../../core/cores/index.js';

/**
 * Problems in agent-core manifests as a person types (spec 7, 9.2), from the same parsers the
 * core's loader uses, so the Problems panel and `pepe init --check` never disagree. Parsing only:
 * nothing here runs a slot module, so it is safe in an untrusted workspace.
 */

export interface ManifestProblem {
  message: string;
  /** Zero-based line/column of start and end. */
  range: { startLine: number; startCol: number; endLine: number; endCol: number };
  severity: 'error' | 'warning';
}

export type ManifestKind = 'slot' | 'pipelines' | 'agent';

export function manifestKind(file: string): ManifestKind | undefined {
  const name = basename(file);
  if (name === 'slot.yaml') return 'slot';
  if (name === 'pipelines.yaml') return 'pipelines';
  // A core's agent.yaml (its capability grants): only next to an authored surface, not any agent.yaml.
  if (name === 'agent.yaml' && existsSync(join(dirname(file), 'agent', 'pipelines.yaml'))) return 'agent';
  return undefined;
}

function toManifestProblem(p: Problem): ManifestProblem {
  const startLine = Math.max(0, p.line - 1);
  const startCol = Math.max(0, p.column - 1);
  return {
    message: p.message,
    severity: 'error',
    range: { startLine, startCol, endLine: p.endLine ? p.endLine - 1 : startLine, endCol: p.endColumn ? p.endColumn - 1 : startCol + 1 },
  };
}

/** The slot ids of each phase next to a pipelines.yaml (`<surface>/<phase>/<id>/slot.yaml`). */
function knownSlots(surface: string): Record<Phase, ReadonlySet<string>> {
  const out = {} as Record<Phase, ReadonlySet<string>>;
  for (const phase of PHASES) {
    const dir = join(surface, phase);
    let ids: string[] = [];
    try {
      ids = readdirSync(dir).filter((d) => statSync(join(dir, d)).isDirectory() && existsSync(join(dir, d, 'slot.yaml')));
    } catch {
      // no folder for this phase
    }
    out[phase] = new Set(ids);
  }
  return out;
}

/** One manifest's text as typed (unsaved edits included). */
export function checkManifest(file: string, text: string): ManifestProblem[] {
  const kind = manifestKind(file);
  if (!kind) return [];
  const problems =
    kind === 'slot' ? parseManifest(file, text).problems : kind === 'agent' ? parseCoreGrants(file, text).problems : parsePipelines(file, text, knownSlots(dirname(file))).problems;
  return problems.map(toManifestProblem);
}

/**
 * Every manifest of an agent core folder with its problems (an empty list clears old ones). Its
 * modules are loaded (to check that entrypoints exist) only in a trusted workspace.
 */
export function checkCoreFolder(folder: string, trusted: boolean): { file: string; problems: ManifestProblem[] }[] {
  const byFile = new Map<string, ManifestProblem[]>();
  const surface = join(folder, 'agent');
  byFile.set(join(surface, 'pipelines.yaml'), []);
  for (const [phase, ids] of Object.entries(knownSlots(surface))) for (const id of ids) byFile.set(join(surface, phase, id, 'slot.yaml'), []);
  for (const p of checkCore(folder, { loadModules: trusted })) {
    const list = byFile.get(p.file) ?? [];
    list.push(toManifestProblem(p));
    byFile.set(p.file, list);
  }
  return [...byFile.entries()].map(([file, problems]) => ({ file, problems }));
}
