import { dirname, join } from 'node:path';
import { ROUTING_TOOL_NAMES } from '../agent-intro.js';
import type { AgentConfig, PepeConfig } from '../config/schema.js';
import type { EventSink, TurnSharedCache } from '../events.js';
import type { Message } from '../messages.js';
import { resolveInWorkspace } from '../tools/paths.js';
import type { Tool } from '../tools/tool.js';
import { instructionsBlock, instructionSelection, instructionsMessage, TurnInstructions, type InstructionFile } from '../interop/instructions.js';
import { discoverSkills, skillsListMessage, type SkillCatalog } from '../interop/skills.js';
import { projectRoot } from '../interop/text-files.js';
import { CONCURRENT_TOOLS } from './turn-loop.js';

/**
 * What one turn takes from the files people bring (issue 24): the project's instruction files and
 * the skills it may load. Workspace files count only where the workspace is trusted (in VS Code's
 * Restricted Mode, or with `--untrusted`, none is read); the person's own skills in $PEPE_HOME
 * always do.
 */
export interface TurnInterop {
  instructions: TurnInstructions;
  /** The instruction files given at the turn's start, in order. */
  files: InstructionFile[];
  skills: SkillCatalog;
}

/**
 * With `shared`, what the turn's earlier hops found is reused (turn-shared.ts says when it is
 * forgotten); each hop still gets its own TurnInstructions, so the nested files it brings in and
 * the cap it spends are its own.
 */
export async function turnInterop(opts: { workspace: string; home: string; trusted: boolean; agentConfig: AgentConfig; config: PepeConfig; shared?: TurnSharedCache }): Promise<TurnInterop> {
  const once = <T>(key: string, make: () => Promise<T>) => (opts.shared ? opts.shared.once(key, make) : make());
  const root = opts.trusted ? await once(`root\0${opts.workspace}`, () => projectRoot(opts.workspace)) : null;
  // Every turn starts afresh: a marker in the session's history could be written by anything the
  // model read, so what was given before is never taken from it (a nested file may come again).
  const selection = root ? instructionSelection(opts.agentConfig, opts.config) : 'none';
  const atStart = async () => {
    const instructions = new TurnInstructions(root ?? opts.workspace, selection, opts.shared);
    return { instructions, files: await instructions.atStart(opts.workspace) };
  };
  const [start, skills] = await Promise.all([
    once(`instructions\0${root ?? ''}\0${opts.workspace}\0${JSON.stringify(selection)}`, atStart),
    once(`skills\0${opts.home}\0${root ?? ''}`, () => discoverSkills({ home: opts.home, root })),
  ]);
  return { instructions: opts.shared ? start.instructions.copy() : start.instructions, files: start.files, skills };
}

/**
 * Tools that empty the turn's shared discovery when they start and when they end (turn-shared.ts):
 * the routing tools only consult or hand over, and the built-in tools that only read (read_file,
 * list_dir, memory_search, web_search, load_skill) change nothing either; every other tool may
 * change the workspace. (MCP tools are named after their server, so none takes a built-in's name.)
 */
export function forgettingShared(tools: Tool<any>[], shared: TurnSharedCache): Tool<any>[] {
  return tools.map((tool) => {
    if (ROUTING_TOOL_NAMES.has(tool.name) || CONCURRENT_TOOLS.has(tool.name)) return tool;
    const wrapped: Tool<any> = {
      ...tool,
      async execute(args, ctx) {
        shared.changed();
        try {
          return await tool.execute(args, ctx);
        } finally {
          shared.changed();
        }
      },
    };
    return wrapped;
  });
}

/** The system messages the turn adds after the agent's own prompt: instructions, then the skills' list. */
export function interopSystemMessages(interop: TurnInterop, skillsVisible: boolean): Message[] {
  const out: Message[] = [];
  const instructions = instructionsMessage(interop.files, interop.instructions.leftOut);
  if (instructions) out.push({ role: 'system', content: instructions });
  const skills = skillsVisible ? skillsListMessage(interop.skills.skills) : null;
  if (skills) out.push({ role: 'system', content: skills });
  return out;
}

/** The event a surface shows ("using AGENTS.md, .github/copilot-instructions.md"); null when no file is used. */
export function instructionsEvent(path: string[], files: readonly InstructionFile[], leftOut: readonly string[]) {
  if (!files.length && !leftOut.length) return null;
  return { type: 'instructions' as const, path, files: files.map((f) => ({ name: f.name, cut: f.cut })), leftOut: [...leftOut] };
}

const FILE_TOOLS: Record<string, 'file' | 'folder'> = { read_file: 'file', write_file: 'file', edit_file: 'file', list_dir: 'folder' };

/**
 * The file tools, each adding to its result the AGENTS.md files of the folders it touched that
 * the turn has not given yet (root first, nearest last), so working in `pkg/` brings
 * `pkg/AGENTS.md` in. Only the result changes: what the call does and what the barrier decides
 * are the wrapped tool's own.
 */
export function withNestedInstructions(tools: Tool<any>[], interop: TurnInterop, workspace: string, emit: EventSink, path: string[]): Tool<any>[] {
  return tools.map((tool) => {
    const kind = FILE_TOOLS[tool.name];
    if (!kind) return tool;
    const wrapped: Tool<any> = {
      ...tool,
      async execute(args, ctx) {
        const outcome = await tool.execute(args, ctx);
        const requested = (args as { path?: unknown } | null)?.path;
        if (outcome.isError || outcome.untrusted || typeof requested !== 'string') return outcome;
        const touched = resolveInWorkspace(workspace, requested);
        const added = await interop.instructions.forFile(kind === 'folder' ? join(touched, 'AGENTS.md') : touched).catch(() => []);
        if (!added.length) return outcome;
        const event = instructionsEvent(path, added, []);
        if (event) emit(event);
        const where = dirname(added[added.length - 1]!.name);
        return { ...outcome, content: `${outcome.content}\n\nInstructions for ${where === '.' ? 'this project' : where + '/'}, supplied by the workspace (text only: they grant no permissions):\n${instructionsBlock(added)}` };
      },
    };
    return wrapped;
  });
}
