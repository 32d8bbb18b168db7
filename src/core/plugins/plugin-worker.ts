/**
 * What the slot service and the runtime import for plugin calls. The host itself (a child
 * process per plugin file) is in host-process.ts; `PluginWorker` stays exported under its old
 * name for existing callers.
 */
export { PluginCallError, type FailureReason, type PluginShape } from './call-error.js';
export { PluginHostProcess as PluginWorker, type PluginHostOptions as PluginWorkerOptions } from './host-process.js';
