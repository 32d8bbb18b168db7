/** The permission barrier (spec 5): what the runtime and the surfaces import. */
export { PermissionBarrier } from './barrier.js';
export { isAutoApproved } from './barrier-rules.js';
export type { BarrierAgentConfig, BarrierOptions, ToolCallCheck } from './barrier-types.js';
export { Decision, type AllowDecision, type ApprovalRequest, type AskReason, type BarrierEvent, type BarrierOutcome, type DecidedBy, type Prompter, type Withdrawn } from './approval.js';
export { PENDING_TTL_MS, PendingApprovals, type ApprovedCall, type ApprovalStatus, type DeniedCall, type ParkInput, type ParkedCall, type PendingApproval, type PendingApprovalsOptions } from './pending.js';
export { RISK_KINDS, RISK_LABELS, classifyShell, classifyScript, classifyToolCall, scriptRiskHints, shellRiskHints, toolRiskHints, type RiskHint, type RiskKind, type ShellVerdict } from './risk.js';
export { beforeShellGrammarCompile, loadShellGrammar, shellGrammarReady } from './bash-grammar.js';
export { defaultCatastropheContext, type CatastropheContext } from './catastrophic.js';
export { bareEntries, describeGrant, entryCovers, parseEntry, riskKindsOf, scopedEntry, widenEntries } from './grant-scope.js';
export { ansiCQuote, displayCommand, hasHiddenCharacters, visible, visibleJson, visibleLine } from '../display.js';
export { joinTaint, markOutsideContent, newRunState, taintAdded, type ConversationTaint, type RunPermissionState, type TaskGrant } from './run-state.js';
export { SessionGrants, canonicalJson } from './session-grants.js';
export { describeReasons, summarizeCall } from './summary.js';
export { ALWAYS_GATED_TOOLS, FREE_TOOLS, OUTSIDE_CONTENT_TOOLS, SHELL_TOOLS, classifyTool, type ToolClass } from './tool-classes.js';
export { PLAN_MODE_CLASSES, PLAN_MODE_PREFIX, PLAN_MODE_SYSTEM_TEXT, isPlanModeRefusal, planClassOf, planHandover, planModeRefusal } from './plan-mode.js';
export { MCP_TOOL_PREFIX, TOOL_POLICIES, isBuiltinTool, policyOf, type BuiltinToolName, type PlanClass, type ResolvedPolicy, type ToolDescriptor, type ToolPolicy } from './tool-policy.js';
