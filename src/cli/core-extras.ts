/**
 * Parts of the core only some CLI commands use (agent cores, checkpoints, background tasks, session
 * export, the terminal prompter, attached pictures): built as one chunk of their own
 * (scripts/cli-bundles.mjs) and loaded with `loadCliExtras()` (core-loader.ts) by the commands that
 * use them, never by `pepe slot list`. One module rather than an import() each: every import() is a
 * chunk boundary, and many of them cut the core into many small files that every command would
 * then read one by one.
 */
export { Checkpoints } from '../core/checkpoints/checkpoints.js';
export { checkCore, checkCoreReport } from '../core/cores/load-core.js';
export { checkAgentCores } from '../core/cores/check-agents.js';
export { formatProblem } from '../core/cores/problems.js';
export { scaffoldCore } from '../core/cores/scaffold.js';
export { statusLine } from '../core/runtime/conversation-figures.js';
export { planHandover } from '../core/permissions/plan-mode.js';
export { sessionMarkdown, sessionMatches } from '../core/runtime/session-export.js';
export { AGENT_STATUS_WORDS } from '../core/interop/report.js';
export { readImageFiles } from './image-files.js';
export { TtyPrompter } from './tty-prompter.js';
export { TaskService, TaskStore, tasksHome, runTask, awaitedCalls, DEFAULT_MAX_TASKS } from '../core/tasks/index.js';
