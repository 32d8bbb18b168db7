import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { errorMessage } from '../errors.js';
import { confinedCommand, detectConfinement, processLimitPrefix, sandboxPolicy, type ConfinementStatus } from '../sandbox/index.js';
import { redact } from '../secrets/scrub.js';
import type { ToolHooks } from './invoke-tool.js';
import { HookAnswer, matches, type HookEntry, type HookEvent } from '../config/hooks.js';
import { execaWithoutInherited } from '../sandbox/inherited-fds.js';

/**
 * Runs hooks (issue 24): each one confined like a sandbox command (bubblewrap: the workspace
 * writable with `.git` hooks and config read-only, $PEPE_HOME and the home folder's secrets
 * hidden, no network), the event as JSON on stdin, killed at its deadline. Nothing a hook says
 * can allow a call: before a tool it can deny or ask; after one it adds context.
 */

export interface HookRunnerDeps {
  hooks: () => readonly HookEntry[];
  workspace: string;
  pepeHome: string;
  /** The environment a hook sees (already the allow-list: no secrets). */
  env: () => Record<string, string>;
  secrets: () => readonly string[];
  log: (message: string, detail: Record<string, unknown>) => void;
  /** Replaceable in tests. Default: the OS sandbox's status. */
  confinement?: () => Promise<ConfinementStatus>;
}

export interface HookRun {
  hook: HookEntry;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the hook could not run or did not finish normally. */
  failure?: string;
}

export type PreToolVerdict = { kind: 'none' } | { kind: 'deny'; reason: string } | { kind: 'ask'; reason: string };

export interface PostToolOutcome {
  context: string[];
  outsideContent: boolean;
  /** Hook names that marked the result as outside content. */
  markedBy: string[];
}

const MAX_OUTPUT = 64 * 1024;

export class HookRunner {
  constructor(private readonly deps: HookRunnerDeps) {}

  /** The tool invoker's view for one turn (no hook configured: none, so nothing is spawned). */
  forTurn(turn: { agent: string; sessionId: string }): ToolHooks | undefined {
    if (this.deps.hooks().length === 0) return undefined;
    const common = { session_id: turn.sessionId, agent: turn.agent };
    return {
      before: (call, signal) => this.preToolUse(call.name, { ...common, cwd: call.cwd, tool_name: call.name, tool_use_id: call.id, tool_input: call.args }, signal),
      after: (call, signal) =>
        this.postToolUse(call.name, { ...common, cwd: call.cwd, tool_name: call.name, tool_use_id: call.id, tool_input: call.args, tool_response: { content: call.content, is_error: call.isError } }, signal),
    };
  }

  has(event: HookEvent, tool: string | null = null): boolean {
    return this.deps.hooks().some((h) => h.event === event && matches(h.matcher, tool));
  }

  /** Every matching hook, at the same time; each answer on its own. */
  async run(event: HookEvent, tool: string | null, payload: Record<string, unknown>, signal?: AbortSignal): Promise<HookRun[]> {
    const hooks = this.deps.hooks().filter((h) => h.event === event && matches(h.matcher, tool));
    if (hooks.length === 0) return [];
    const input = redact(JSON.stringify({ hook_event_name: event, cwd: this.deps.workspace, ...payload }), this.deps.secrets());
    return Promise.all(hooks.map((h) => this.runOne(h, input, signal)));
  }

  /** Before a tool: any deny denies; else any ask (or any hook that failed) asks. An "allow" is ignored and logged. */
  async preToolUse(tool: string, payload: Record<string, unknown>, signal?: AbortSignal): Promise<PreToolVerdict> {
    const runs = await this.run('PreToolUse', tool, payload, signal);
    const deny: string[] = [];
    const ask: string[] = [];
    for (const r of runs) {
      const who = `hook "${r.hook.command}" (${r.hook.source})`;
      if (r.failure) {
        this.deps.log(`a before-tool hook failed, so the call is asked: ${r.failure}`, { hook: r.hook.command, source: r.hook.source, tool });
        ask.push(`${who} failed (${r.failure}), so this call is asked`);
        continue;
      }
      if (r.exitCode === 2) {
        deny.push(r.stderr.trim() || `denied by ${who}`);
        continue;
      }
      if (r.exitCode !== 0) {
        this.deps.log(`a before-tool hook exited ${r.exitCode}, so the call is asked`, { hook: r.hook.command, source: r.hook.source, tool });
        ask.push(`${who} exited with status ${r.exitCode}, so this call is asked`);
        continue;
      }
      const answer = parseAnswer(r.stdout);
      if (answer === 'garbage') {
        this.deps.log('a before-tool hook answered something that is not a valid hook answer, so the call is asked', { hook: r.hook.command, source: r.hook.source, tool });
        ask.push(`${who} gave an answer that could not be read, so this call is asked`);
        continue;
      }
      if (!answer) continue;
      const decision = answer.hookSpecificOutput?.permissionDecision ?? (answer.decision === 'block' ? 'deny' : answer.decision === 'approve' ? 'allow' : undefined);
      const reason = answer.hookSpecificOutput?.permissionDecisionReason ?? answer.reason;
      if (decision === 'deny') deny.push(reason?.trim() || `denied by ${who}`);
      else if (decision === 'ask') ask.push(reason?.trim() ? `${who}: ${reason.trim()}` : `${who} asks for this call to be confirmed`);
      else if (decision === 'allow') this.deps.log('a hook answered "allow", which is ignored: hooks can only deny or ask; the permission barrier decides', { hook: r.hook.command, source: r.hook.source, tool });
    }
    if (deny.length) return { kind: 'deny', reason: deny.join('; ') };
    if (ask.length) return { kind: 'ask', reason: ask.join('; ') };
    return { kind: 'none' };
  }

  /** After a tool: context for the model, and whether the result is outside content. Failures are logged and ignored. */
  async postToolUse(tool: string, payload: Record<string, unknown>, signal?: AbortSignal): Promise<PostToolOutcome> {
    const out: PostToolOutcome = { context: [], outsideContent: false, markedBy: [] };
    for (const r of await this.run('PostToolUse', tool, payload, signal)) {
      const context = this.contextFrom(r, tool);
      out.context.push(...context.text);
      if (context.outside) {
        out.outsideContent = true;
        out.markedBy.push(`hook "${r.hook.command}"`);
      }
    }
    return out;
  }

  /** UserPromptSubmit and SessionStart: a block (exit 2 or decision "block") and context. */
  async promptEvent(event: 'UserPromptSubmit' | 'SessionStart', payload: Record<string, unknown>, signal?: AbortSignal): Promise<{ blocked: string | null; context: string[] }> {
    let blocked: string | null = null;
    const context: string[] = [];
    for (const r of await this.run(event, null, payload, signal)) {
      const answer = !r.failure && r.exitCode === 0 ? parseAnswer(r.stdout) : null;
      if (event === 'UserPromptSubmit' && (r.exitCode === 2 || (answer && answer !== 'garbage' && answer.decision === 'block'))) {
        blocked = (r.exitCode === 2 ? r.stderr.trim() : answer && answer !== 'garbage' ? answer.reason?.trim() : '') || `blocked by hook "${r.hook.command}" (${r.hook.source})`;
        continue;
      }
      context.push(...this.contextFrom(r, null).text);
    }
    return { blocked, context };
  }

  /** Stop: told, nothing it says changes the turn. */
  async notify(event: 'Stop', payload: Record<string, unknown>): Promise<void> {
    for (const r of await this.run(event, null, payload)) if (r.failure || (r.exitCode !== 0 && r.exitCode !== null)) this.deps.log(`a ${event} hook failed: ${r.failure ?? `exit ${r.exitCode}`}`, { hook: r.hook.command, source: r.hook.source });
  }

  private contextFrom(r: HookRun, tool: string | null): { text: string[]; outside: boolean } {
    if (r.failure) {
      this.deps.log(`a ${r.hook.event} hook failed and is ignored for this call: ${r.failure}`, { hook: r.hook.command, source: r.hook.source, tool });
      return { text: [], outside: false };
    }
    if (r.exitCode === 2 && r.stderr.trim()) return { text: [r.stderr.trim()], outside: false };
    if (r.exitCode !== 0) {
      this.deps.log(`a ${r.hook.event} hook exited ${r.exitCode} and is ignored for this call`, { hook: r.hook.command, source: r.hook.source, tool });
      return { text: [], outside: false };
    }
    const answer = parseAnswer(r.stdout);
    if (answer === 'garbage') {
      this.deps.log(`a ${r.hook.event} hook answered something that is not a valid hook answer; ignored`, { hook: r.hook.command, source: r.hook.source, tool });
      return { text: [], outside: false };
    }
    if (!answer) return { text: r.hook.event === 'PostToolUse' || !r.stdout.trim() ? [] : [r.stdout.trim()], outside: false };
    if (answer.hookSpecificOutput?.permissionDecision === 'allow' || answer.decision === 'approve') this.deps.log('a hook answered "allow", which is ignored', { hook: r.hook.command, source: r.hook.source, tool });
    const text = [answer.hookSpecificOutput?.additionalContext, answer.decision === 'block' ? answer.reason : undefined].filter((t): t is string => !!t?.trim()).map((t) => t.trim());
    return { text, outside: answer.hookSpecificOutput?.outsideContent === true };
  }

  private async runOne(hook: HookEntry, input: string, signal?: AbortSignal): Promise<HookRun> {
    const base = { hook, exitCode: null, stdout: '', stderr: '', timedOut: false };
    const status = await (this.deps.confinement ?? detectConfinement)();
    // Fail closed: a hook runs confined or not at all.
    if (!status.confined) return { ...base, failure: `hooks run only confined, and confinement is not available here (${status.reason})` };
    try {
      const dataDir = hook.personal ? join(this.deps.pepeHome, 'hook-data') : null;
      if (dataDir) mkdirSync(dataDir, { recursive: true });
      const policy = sandboxPolicy({ workspace: this.deps.workspace, pepeHome: this.deps.pepeHome, home: homedir(), network: false, maxProcesses: 64, ...(hook.personal ? { visible: [join(this.deps.pepeHome, 'hooks')] } : {}) });
      // A personal hook keeps what it writes (an audit log) in its own folder of $PEPE_HOME.
      if (dataDir) policy.writable.push(dataDir);
      const prefix = processLimitPrefix(policy);
      const cmd = confinedCommand(policy, ['/bin/sh', '-c', `${prefix}${hook.command}`]);
      const env = { ...this.deps.env(), PEPE_PROJECT_DIR: this.deps.workspace, CLAUDE_PROJECT_DIR: this.deps.workspace, ...(dataDir ? { PEPE_HOOK_DATA: dataDir } : {}) };
      const r = await execa(cmd.file, cmd.args, {
        cwd: this.deps.workspace,
        env,
        extendEnv: false,
        input,
        stdio: execaWithoutInherited(['pipe', 'pipe', 'pipe']),
        reject: false,
        timeout: hook.timeoutS * 1000,
        killSignal: 'SIGKILL',
        maxBuffer: MAX_OUTPUT,
        encoding: 'utf8',
        ...(signal ? { cancelSignal: signal } : {}),
      });
      const stdout = String(r.stdout ?? '').slice(0, MAX_OUTPUT);
      const stderr = String(r.stderr ?? '').slice(0, MAX_OUTPUT);
      if (r.timedOut) return { ...base, stdout, stderr, timedOut: true, failure: `no answer within ${hook.timeoutS} s; it was stopped` };
      if (typeof r.exitCode !== 'number') return { ...base, stdout, stderr, failure: r.signal ? `killed by ${r.signal}` : r.shortMessage ?? 'did not run' };
      return { ...base, exitCode: r.exitCode, stdout, stderr };
    } catch (e) {
      return { ...base, failure: `could not run: ${errorMessage(e)}` };
    }
  }
}

/** null: nothing to read (empty or plain text); 'garbage': looks like JSON but is not a valid answer. */
function parseAnswer(stdout: string): HookAnswer | null | 'garbage' {
  const t = stdout.trim();
  if (!t.startsWith('{')) return null;
  try {
    const p = HookAnswer.safeParse(JSON.parse(t));
    return p.success ? p.data : 'garbage';
  } catch {
    return 'garbage';
  }
}
