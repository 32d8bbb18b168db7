/**
 * What the facade loads on first use rather than with itself: the agent runtime (the turn loop,
 * the tools, the barrier's command rules, agent cores, model providers), health checks, plugin
 * installs, checkpoints, attached files and compaction by a model. A command or a view that needs
 * none of them (`pepe slot list`, the Slots tree) never loads them. One module: each import() is a
 * chunk boundary for the bundler, and many of them would cut the shared core into many small files.
 */
export { AgentRuntime } from '../runtime/agent-runtime.js';
export { runDoctor } from '../doctor.js';
export { mcpFindings } from '../mcp/doctor.js';
export { installPlugin, removePlugin } from '../plugins/install.js';
export { Checkpoints } from '../checkpoints/checkpoints.js';
export { fileAttachment } from '../context-attachments.js';
export { summariseWithModel } from '../runtime/compact-with-model.js';
