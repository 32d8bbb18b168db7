import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import * as z from '../zod.js';
import { expandHome, gitControlChanges, scanGitControlAsync } from '../sandbox/index.js';
import { commandSearchPath, scrubEnv } from '../secrets/scrub.js';
import { DEFAULT_SANDBOX_TIMEOUT_MS } from '../slots/builtin/sandbox.js';
import { SandboxRefusedError } from '../slots/slot-service.js';
import { resolveInWorkspace } from './paths.js';
import { defineTool, slotEvents, type ToolContext, type ToolFacts, type ToolOutcome } from './tool.js';

const MAX_TIMEOUT_MS = 600_000;

/**
 * Where a command runs: its `cwd` resolved in the workspace and followed to its real path, so the
 * person is shown (and the command runs in) the directory a link leads to, not the link.
 */
async function commandFacts(cwd: string | undefined, ctx: ToolContext): Promise<ToolFacts> {
  // Called before the barrier judges the call: the sandbox can start getting ready meanwhile.
  ctx.slots.sandboxWarmUp?.(ctx.agent);
  const dir = cwd ? resolveInWorkspace(ctx.workspace, cwd) : ctx.workspace;
  return { cwd: await realpath(dir).catch(() => dir) };
}

async function runInSandbox(ctx: ToolContext, program: string, argv: string[], cwd: string | undefined, timeoutMs: number | undefined): Promise<ToolOutcome> {
  // The invoker's facts are what the person approved; resolving again could land elsewhere.
  const dir = ctx.facts?.cwd ?? (await commandFacts(cwd, ctx)).cwd!;
  const env = scrubEnv(ctx.env, ctx.config);
  const path = commandSearchPath(env.PATH, ctx.workspace);
  if (path !== undefined) env.PATH = path;
  // Spec 8.1: what decides what git runs, before and after, so a repository the command created or
  // a control file it changed is said (to the model and the person) and taints the run.
  const home = ctx.env.HOME;
  const roots = [ctx.workspace, ...(ctx.config.sandbox?.writable ?? []).map((p) => expandHome(p, home)).filter((p) => isAbsolute(p) && existsSync(p))];
  const before = await scanGitControlAsync(roots);
  const opts = {
    cwd: dir,
    workspace: ctx.workspace,
    gitScan: before,
    env,
    timeoutMs: Math.min(timeoutMs ?? ctx.config.sandbox?.timeout_ms ?? DEFAULT_SANDBOX_TIMEOUT_MS, MAX_TIMEOUT_MS),
    signal: ctx.signal,
    // Only a call approved with its "network" risk shown runs with the network.
    network: ctx.allowNetwork === true,
  };
  try {
    const { result } = await ctx.slots.sandboxRun(ctx.agent, program, argv, opts, slotEvents(ctx));
    const changes = gitControlChanges(before, await scanGitControlAsync(roots));
    for (const line of changes) ctx.markOutsideContent(`${program}: ${line}`);
    const notice = changes.map((line) => `\n[pepe: ${line}]`).join('');
    return { content: `exit status ${result.exitStatus}\n${result.output}${notice}`, isError: result.exitStatus !== 0 };
  } catch (e) {
    // The slot service told the surface; the model gets the refusal.
    if (e instanceof SandboxRefusedError) return { content: `refused: ${e.message}`, isError: true };
    throw e;
  }
}

export const bash = defineTool({
  name: 'bash',
  description: 'Run a shell command line with bash in the sandbox. Returns the exit status and the combined output.',
  input: z.object({
    command: z.string().check(z.minLength(1)),
    cwd: z.optional(z.string()).check(z.describe('working directory, relative to the workspace')),
    timeout_ms: z.optional(z.number().check(z.int(), z.positive())),
  }),
  resolve: ({ cwd }, ctx) => commandFacts(cwd, ctx),
  execute: ({ command, cwd, timeout_ms }, ctx) => runInSandbox(ctx, 'bash', ['-c', command], cwd, timeout_ms),
});

export const runScript = defineTool({
  name: 'run_script',
  description: 'Run a program with arguments in the sandbox, without a shell. Returns the exit status and the combined output.',
  input: z.object({
    program: z.string().check(z.minLength(1)),
    args: z._default(z.array(z.string()), []),
    cwd: z.optional(z.string()),
    timeout_ms: z.optional(z.number().check(z.int(), z.positive())),
  }),
  resolve: ({ cwd }, ctx) => commandFacts(cwd, ctx),
  execute: ({ program, args, cwd, timeout_ms }, ctx) => runInSandbox(ctx, program, args, cwd, timeout_ms),
});
