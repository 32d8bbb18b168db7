import { UsageError } from '../errors.js';
import type { SlotName } from './slot-names.js';
import { NAME_PATTERN, type AgentConfig, type ModelConfig } from './schema.js';

/**
 * Edits applied to the raw config document inside ConfigStore.update (so unknown keys survive).
 * Each validates what it can against the document it is given, which is the fresh one under the lock.
 */

type Raw = Record<string, unknown>;

function objectAt(raw: Raw, ...keys: string[]): Raw {
  let node = raw;
  for (const key of keys) {
    const next = node[key];
    if (next === undefined || next === null) node[key] = {};
    else if (typeof next !== 'object' || Array.isArray(next)) throw new UsageError(`config.json: ${keys.join('.')} is not an object; fix it by hand first`);
    node = node[key] as Raw;
  }
  return node;
}

function pruneEmpty(raw: Raw, ...keys: string[]): void {
  // Removes now-empty containers on the path, deepest first, so clear leaves no litter.
  for (let depth = keys.length; depth > 0; depth--) {
    let node: unknown = raw;
    for (const k of keys.slice(0, depth - 1)) node = (node as Raw)?.[k];
    const last = keys[depth - 1]!;
    const child = (node as Raw | undefined)?.[last];
    if (child && typeof child === 'object' && !Array.isArray(child) && Object.keys(child).length === 0) delete (node as Raw)[last];
    else break;
  }
}

export type SlotTarget = { agent?: string; project?: string };

function slotPath(target: SlotTarget): string[] {
  if (target.agent) return ['agents', target.agent, 'slots'];
  if (target.project) return ['projects', target.project, 'default_slots'];
  return ['slots'];
}

export function agentExists(raw: Raw, agent: string): boolean {
  const agents = raw.agents as Raw | undefined;
  return !!agents && Object.prototype.hasOwnProperty.call(agents, agent);
}

export function setSlot(raw: Raw, slot: SlotName, plugin: string, target: SlotTarget): void {
  if (target.agent && !agentExists(raw, target.agent)) throw new UsageError(`unknown agent "${target.agent}"; add it first with: pepe agent add ${target.agent}`);
  objectAt(raw, ...slotPath(target))[slot] = plugin;
}

/** Returns the plugin name that was configured, or null when there was nothing to clear. */
export function clearSlot(raw: Raw, slot: SlotName, target: SlotTarget): string | null {
  if (target.agent && !agentExists(raw, target.agent)) throw new UsageError(`unknown agent "${target.agent}"`);
  const path = slotPath(target);
  let node: unknown = raw;
  for (const k of path) node = (node as Raw | undefined)?.[k];
  if (!node || typeof node !== 'object') return null;
  const previous = (node as Raw)[slot];
  delete (node as Raw)[slot];
  pruneEmpty(raw, ...path);
  return typeof previous === 'string' ? previous : null;
}

export function assertName(kind: 'agent' | 'project', name: string): void {
  if (!NAME_PATTERN.test(name)) throw new UsageError(`invalid ${kind} name "${name}": use letters, digits, '_', '-' or '.', starting with a letter or digit`);
}

export function addAgent(raw: Raw, name: string, agent: AgentConfig): void {
  assertName('agent', name);
  if (agentExists(raw, name)) throw new UsageError(`agent "${name}" already exists; remove it first or edit config.json`);
  for (const target of agent.can_message ?? []) {
    if (target !== name && !agentExists(raw, target)) throw new UsageError(`cannot route ${name} → ${target}: there is no agent "${target}"; add it first`);
    if (target !== name) assertSameProjectOrOpened(raw, name, target, agent.project ?? null);
  }
  if (agent.project) assertName('project', agent.project);
  objectAt(raw, 'agents')[name] = agent;
}

export function removeAgent(raw: Raw, name: string): { routesRemoved: string[] } {
  if (!agentExists(raw, name)) throw new UsageError(`unknown agent "${name}"`);
  const agents = raw.agents as Raw;
  delete agents[name];
  // Routes pointing at a removed agent would be stale; drop them and say so.
  const routesRemoved: string[] = [];
  for (const [from, cfg] of Object.entries(agents)) {
    const list = (cfg as Raw | null)?.can_message;
    if (Array.isArray(list) && list.includes(name)) {
      (cfg as Raw).can_message = list.filter((t) => t !== name);
      routesRemoved.push(`${from} → ${name}`);
    }
  }
  return { routesRemoved };
}

/** Project of an agent in the raw document (null: in no project). */
function projectIn(raw: Raw, agent: string): string | null {
  const p = ((raw.agents as Raw | undefined)?.[agent] as Raw | undefined)?.project;
  return typeof p === 'string' ? p : null;
}

/**
 * A route between agents of different projects (no project is outside every project) needs the
 * sender's project to list the other in `can_message_projects`: refused here, not written.
 */
function assertSameProjectOrOpened(raw: Raw, from: string, to: string, fromProject = projectIn(raw, from)): void {
  const toProject = projectIn(raw, to);
  if (fromProject === toProject) return;
  const opened = fromProject !== null && toProject !== null && ((((raw.projects as Raw | undefined)?.[fromProject] as Raw | undefined)?.can_message_projects as unknown[] | undefined) ?? []).includes(toProject);
  if (opened) return;
  const where = (p: string | null) => (p === null ? 'no project' : `project ${p}`);
  const fix = fromProject !== null && toProject !== null ? `; to allow it, add "${toProject}" to projects.${fromProject}.can_message_projects` : '; put both agents in projects first';
  throw new UsageError(`cannot route ${from} → ${to}: they are in different projects (${where(fromProject)}, ${where(toProject)})${fix}`);
}

/** Spec 6.1/6.4: allow `from → to`. Directed: nothing opens the other way. Returns false if it existed. */
export function addRoute(raw: Raw, from: string, to: string): boolean {
  if (!agentExists(raw, from)) throw new UsageError(`unknown agent "${from}"; add it first with: pepe agent add ${from}`);
  if (!agentExists(raw, to)) throw new UsageError(`cannot route ${from} → ${to}: there is no agent "${to}"`);
  if (from === to) throw new UsageError(`an agent cannot route to itself (${from})`);
  assertSameProjectOrOpened(raw, from, to);
  const agent = objectAt(raw, 'agents', from);
  const list = Array.isArray(agent.can_message) ? (agent.can_message as string[]) : [];
  if (list.includes(to)) return false;
  agent.can_message = [...list, to];
  return true;
}

/** Revokes `from → to`. Returns false if there was no such route. */
export function removeRoute(raw: Raw, from: string, to: string): boolean {
  if (!agentExists(raw, from)) throw new UsageError(`unknown agent "${from}"`);
  const agent = objectAt(raw, 'agents', from);
  const list = Array.isArray(agent.can_message) ? (agent.can_message as string[]) : [];
  if (!list.includes(to)) return false;
  agent.can_message = list.filter((t) => t !== to);
  return true;
}

/**
 * What a person's editor of an agent may change: an undefined field is left alone. `modelChain`:
 * one id is written as `model`, more as `model_chain`, null or [] removes both. `tools`: null
 * removes the list (every built-in tool). `systemPrompt`: '' or null removes it. `core`: an agent
 * core's folder, null detaches it.
 */
export interface AgentEdit {
  modelChain?: string[] | null;
  tools?: string[] | null;
  systemPrompt?: string | null;
  core?: string | null;
  /** A permission preset's settings (permissions/presets.ts): replaces auto_approve and plan_mode. */
  permissions?: { auto_approve: readonly string[]; plan_mode: boolean };
}

export function editAgent(raw: Raw, agent: string, edit: AgentEdit): void {
  if (!agentExists(raw, agent)) throw new UsageError(`unknown agent "${agent}"`);
  const a = objectAt(raw, 'agents', agent);
  if (edit.modelChain !== undefined) {
    delete a.model;
    delete a.model_chain;
    const chain = edit.modelChain ?? [];
    if (chain.length === 1) a.model = chain[0];
    else if (chain.length > 1) a.model_chain = chain;
  }
  if (edit.tools !== undefined) {
    if (edit.tools === null) delete a.tools;
    else a.tools = edit.tools;
  }
  if (edit.systemPrompt !== undefined) {
    if (!edit.systemPrompt) delete a.system_prompt;
    else a.system_prompt = edit.systemPrompt;
  }
  if (edit.core !== undefined) {
    if (edit.core === null) delete a.core;
    else a.core = edit.core;
  }
  if (edit.permissions) {
    a.auto_approve = [...edit.permissions.auto_approve];
    if (edit.permissions.plan_mode) a.plan_mode = true;
    else delete a.plan_mode;
  }
}

/**
 * Adds a model under `id` (given `model`; an id already there is refused) and makes `id` the
 * default model chain when there is none. Without `model`, `id` names one already configured (or
 * offered by the editor) and is only made the default. Returns whether it became the default.
 */
export function addModel(raw: Raw, id: string, model?: ModelConfig): boolean {
  if (model) {
    const models = objectAt(raw, 'models');
    if (models[id] !== undefined) throw new UsageError(`model "${id}" already exists in config.json`);
    models[id] = model;
  }
  const chain = raw.default_model_chain;
  if (Array.isArray(chain) && chain.length) return false;
  raw.default_model_chain = [id];
  return true;
}

/**
 * Names a JSON Schema for config.json in `$schema`, as the document's first key (where people look
 * for it). A `$schema` already there (e.g. the person's own URL) is theirs: left alone, false.
 */
export function linkSchema(raw: Raw, ref: string): boolean {
  if (raw.$schema !== undefined) return false;
  const rest = { ...raw };
  for (const key of Object.keys(raw)) delete raw[key];
  Object.assign(raw, { $schema: ref, ...rest });
  return true;
}
