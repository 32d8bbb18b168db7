/**
 * Everything the CLI's commands need beyond commander: the core and the terminal adapters. Bundled
 * on its own as dist/cli-core.js (see core-loader.ts and esbuild.mjs). Commands import only the
 * types of what is exported here and load it with `loadCliCore()`.
 */
export { createInterface } from 'node:readline/promises';
export { Checkpoints } from '../core/checkpoints/checkpoints.js';
export { checkCore, checkCoreReport } from '../core/cores/load-core.js';
export { checkAgentCores } from '../core/cores/check-agents.js';
export { formatProblem } from '../core/cores/problems.js';
export { scaffoldCore } from '../core/cores/scaffold.js';
export { createPepe } from '../core/pepe.js';
export { statusLine } from '../core/runtime/conversation-figures.js';
export { planHandover } from '../core/permissions/plan-mode.js';
export { beforeShellGrammarCompile } from '../core/permissions/bash-grammar.js';
export { sessionMarkdown, sessionMatches } from '../core/runtime/session-export.js';
export { cliVscodeUserMcp } from '../core/interop/external-mcp.js';
export { agentFileText, AGENT_STATUS_WORDS } from '../core/interop/report.js';
export { readImageFiles } from './image-files.js';
export { TerminalRenderer } from './render.js';
export { TtyPrompter } from './tty-prompter.js';
export { TaskService, TaskStore, tasksHome, runTask, awaitedCalls, DEFAULT_MAX_TASKS } from '../core/tasks/index.js';
