/**
 * The heavy half of the extension, bundled on its own as dist/extension-core.js (esbuild.mjs) and
 * required on first use: the core (zod, execa, the model SDKs, yaml) stays out of activation.
 * dist/extension.js (activate.ts) only imports the types of what is exported here.
 */
export { buildPepe } from './host/build-pepe.js';
export { HANDLERS } from './commands/handlers.js';
export { Cancelled } from './commands/ui.js';
export { checkManifest } from './diagnostics/manifest-check.js';
export { imagesFromWebview } from './chat/panel-images.js';
export { searchSessions } from './chat/session-search.js';
export { sessionMarkdown } from '../core/runtime/session-export.js';
export { TaskService, tasksHome, DEFAULT_MAX_TASKS } from '../core/tasks/index.js';
export { checkpointLabel } from '../core/checkpoints/checkpoint-label.js';
