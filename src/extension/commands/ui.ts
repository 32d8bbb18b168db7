import * as vscode from 'vscode';
import type { Pepe } from '../../core/pepe.js';

/** The quick picks the commands share (spec 9.2: they list real choices). */

export class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

export async function pick<T extends vscode.QuickPickItem>(items: T[], options: vscode.QuickPickOptions & { title: string }): Promise<T> {
  const picked = await vscode.window.showQuickPick(items, { ignoreFocusOut: true, matchOnDescription: true, ...options });
  if (!picked) throw new Cancelled();
  return picked;
}

export async function input(options: vscode.InputBoxOptions & { title: string }): Promise<string> {
  const value = await vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
  if (value === undefined) throw new Cancelled();
  return value;
}

/** A step of a multi-step input (InputFlow in input-flow.ts, named by shape: that file imports this one). */
export interface PickStep {
  pick<T extends vscode.QuickPickItem>(items: readonly T[], opts: { placeholder: string; title?: string }): Promise<T>;
}

/** An agent; in `flow` (a step of a multi-step input) when given, else its own quick pick. */
export async function pickAgent(pepe: Pepe, title: string, exclude: readonly string[] = [], flow?: PickStep): Promise<string> {
  const agents = pepe.agentList().filter((a) => !exclude.includes(a.name));
  if (!agents.length) throw new Error(exclude.length ? 'no other agent to choose; add one with Pepe: Add Agent…' : 'no agents yet; add one with Pepe: Add Agent…');
  const items = agents.map((a) => ({ label: a.name, description: [a.model ?? 'the default model', a.project && `project ${a.project}`].filter(Boolean).join(' · ') }));
  const picked = flow ? await flow.pick(items, { title, placeholder: 'agent' }) : await pick(items, { title, placeHolder: 'agent' });
  return picked.label;
}

export async function pickProject(pepe: Pepe, title: string): Promise<string> {
  const projects = Object.keys(pepe.config.projects ?? {});
  const fromAgents = pepe.agentList().map((a) => a.project).filter((p): p is string => !!p);
  const all = [...new Set([...projects, ...fromAgents])];
  if (!all.length) return input({ title, prompt: 'Project name (it is created in config.json)', validateInput: (v) => (/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(v) ? undefined : 'letters, digits, _ . -') });
  return (await pick(all.map((p) => ({ label: p })), { title, placeHolder: 'project' })).label;
}
