import type * as z from '../zod.js';
import { describeIssue, jsonPath } from './problems.js';

/** Sections that are maps of named entries: a problem costs one entry's field, not the whole map. */
const MAPS = new Set(['agents', 'projects', 'models', 'mcp_servers']);

/**
 * The part of config.json a validation problem belongs to, as a path into the raw document:
 * `slots` for a top-level setting, `agents.triage.tools` for one field of one agent,
 * `agents.triage` when the agent itself is not an object. Empty when it is the whole document.
 */
export function sectionOf(path: readonly PropertyKey[]): PropertyKey[] {
  if (path.length === 0) return [];
  const top = String(path[0]);
  if (!MAPS.has(top)) return [top];
  return path.slice(0, Math.min(path.length, 3));
}

export interface SectionProblem {
  /** `agents.triage.tools`: what was set aside. */
  section: string;
  /** One line each: where, what is wrong, what to do. */
  problems: string[];
}

/**
 * Spec 2 (a broken file is never overwritten) without stopping everything: each section with a
 * problem is set aside, so it takes its defaults, and the rest of the configuration applies.
 * Returns the document without those sections, or null when a problem cannot be contained: the
 * top level itself, or a section that says anything about the sandbox (someone who configured
 * where commands run must never find them running somewhere else because of a typo).
 */
export function setAsideBroken(raw: Record<string, unknown>, issues: readonly z.core.$ZodIssue[]): { doc: Record<string, unknown>; setAside: SectionProblem[] } | null {
  const doc = structuredClone(raw);
  const bySection = new Map<string, { path: PropertyKey[]; problems: string[] }>();
  for (const issue of issues) {
    const path = sectionOf(issue.path);
    if (path.length === 0) return null;
    const key = jsonPath(path);
    const entry = bySection.get(key) ?? { path, problems: [] };
    entry.problems.push(describeIssue(issue));
    bySection.set(key, entry);
  }
  for (const { path } of bySection.values()) {
    const value = valueAt(raw, path);
    if (path[0] === 'sandbox' || JSON.stringify(value ?? null).includes('sandbox')) return null;
    removeAt(doc, path);
  }
  return { doc, setAside: [...bySection.entries()].map(([section, e]) => ({ section, problems: e.problems })) };
}

function valueAt(doc: unknown, path: readonly PropertyKey[]): unknown {
  let cur = doc;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p as string];
  }
  return cur;
}

function removeAt(doc: Record<string, unknown>, path: readonly PropertyKey[]): void {
  const parent = valueAt(doc, path.slice(0, -1));
  if (parent !== null && typeof parent === 'object') delete (parent as Record<PropertyKey, unknown>)[path[path.length - 1] as string];
}
