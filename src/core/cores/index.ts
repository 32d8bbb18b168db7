/** Agent cores (spec 7): authored bootstrap/input/output pipeline slots. */
export { checkCore, checkCoreReport, loadCore, coreStamp, DEFAULT_SURFACE_ROOT, UNTRUSTED_REASON, type CheckOptions, type LoadOptions } from './load-core.js';
export type { LoadedCore, LoadedSlot } from './loaded-core.js';
export { CoreLoadError, formatProblem, type Problem } from './problems.js';
export {
  runBootstrap,
  runInput,
  runOutput,
  CoreSlotError,
  NoUserTextError,
  CoreCancelledError,
  DEFAULT_SLOT_TIMEOUT_SECONDS,
  type BootstrapResult,
  type InputRun,
  type InputResult,
  type OutputRun,
  type OutputResult,
  type PhaseOptions,
  type SlotFailure,
} from './runner.js';
export type { CoreHost, CoreEvent, ChildAgentRequest, PipelineSelection, ToolSelection, SlotRef, StateScope } from './host.js';
export { CapabilityError, SlotRuleError, type ContextItem, type SentText } from './context.js';
export { strictJson, mergeResult } from './json-values.js';
export { childRequest, selectPipeline, pipelineSelection, toolSelection } from './child-options.js';
export {
  composePrompt,
  inputMessages,
  outputMessages,
  bootstrapMessages,
  modelHistory,
  visibleHistory,
  isModelHidden,
  isRuntimeRecord,
  HISTORY_POLICY_FIELD,
  RUNTIME_RECORD_FIELD,
  BOOTSTRAP_FIELD,
  CORE_SLOT_FIELD,
  type PromptParts,
  type InputMessages,
} from './history-policy.js';
export { restrictedCore, builtinSlot, BASE_INPUT, BASE_OUTPUT } from './base-slots.js';
export { scaffoldCore, SCAFFOLD_FILES } from './scaffold.js';
export { PEPE_CORE_DTS } from './sdk-dts.js';
export type { HistoryPolicy, FailurePolicy, Placement, SlotManifest } from './manifest.js';
export type { Phase, Pipelines, PhasePipeline } from './pipelines.js';
export type * as Sdk from './sdk-types.js';
/** Per-file checks without running anything (for editors: the Problems panel as you type). */
export { parseManifest, MANIFEST_FIELDS, PLACEMENTS, HISTORY_POLICIES, FAILURE_POLICIES } from './manifest.js';
export { parsePipelines, PHASES, GROUPS } from './pipelines.js';
export { capabilityProblem, capabilityAdvice, suggestCapability, grants, PLAIN_CAPABILITIES, NAMED_CAPABILITIES } from './capabilities.js';
export { parseCoreGrants, type CoreGrants } from './core-grants.js';
export { checkAgentCores, type AgentCoreCheck } from './check-agents.js';
