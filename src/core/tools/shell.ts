import { z } from 'zod';
import { scrubEnv } from '../secrets/scrub.js';
import { DEFAULT_SANDBOX_TIMEOUT_MS } from '../slots/builtin/sandbox.js';
import { SandboxRefusedError } from '../slots/slot-service.js';
import { resolveInWorkspace } from './paths.js';
import { defineTool, type ToolContext, type ToolOutcome } from './tool.js';

const MAX_TIMEOUT_MS = 600_000;

async function runInSandbox(ctx: ToolContext, program: string, argv: string[], cwd: string | undefined, timeoutMs: number | undefined): Promise<ToolOutcome> {
  const dir = cwd ? resolveInWorkspace(ctx.workspace, cwd) : ctx.workspace;
  const opts = {
    cwd: dir,
    env: scrubEnv(ctx.env, ctx.config),
    timeoutMs: Math.min(timeoutMs ?? ctx.config.sandbox?.timeout_ms ?? DEFAULT_SANDBOX_TIMEOUT_MS, MAX_TIMEOUT_MS),
  };
  try {
    const answer = await ctx.slots.sandboxRun(ctx.agent, program, argv, opts, async () => {
      const r = await ctx.builtins.runSandbox(ctx.agent, program, argv, { ...opts, signal: ctx.signal });
      return { output: r.output, exitStatus: r.exitStatus };
    });
    if (answer.fallback) {
      ctx.emit({ type: 'slot_fallback', path: ctx.chain, slot: 'sandbox', occupant: answer.occupant, reason: answer.fallback.reason, detail: answer.fallback.detail, outcome: 'builtin' });
    }
    const { output, exitStatus } = answer.result;
    if (answer.answeredBy !== 'builtin') ctx.builtins.mirrorSandbox(ctx.agent, program, argv, { occupant: answer.answeredBy, output, exitStatus });
    return { content: `exit status ${exitStatus}\n${output}`, isError: exitStatus !== 0 };
  } catch (e) {
    if (e instanceof SandboxRefusedError) {
      ctx.emit({ type: 'slot_fallback', path: ctx.chain, slot: 'sandbox', occupant: e.occupant, reason: e.fallback.reason, detail: e.fallback.detail, outcome: 'refused' });
      ctx.builtins.mirrorSandbox(ctx.agent, program, argv, { occupant: e.occupant, refused: e.message });
      return { content: `refused: ${e.message}`, isError: true };
    }
    throw e;
  }
}

export const bash = defineTool({
  name: 'bash',
  description: 'Run a shell command line with bash in the sandbox. Returns the exit status and the combined output.',
  input: z.object({
    command: z.string().min(1),
    cwd: z.string().optional().describe('working directory, relative to the workspace'),
    timeout_ms: z.number().int().positive().optional(),
  }),
  execute: ({ command, cwd, timeout_ms }, ctx) => runInSandbox(ctx, 'bash', ['-c', command], cwd, timeout_ms),
});

export const runScript = defineTool({
  name: 'run_script',
  description: 'Run a program with arguments in the sandbox, without a shell. Returns the exit status and the combined output.',
  input: z.object({
    program: z.string().min(1),
    args: z.array(z.string()).default([]),
    cwd: z.string().optional(),
    timeout_ms: z.number().int().positive().optional(),
  }),
  execute: ({ program, args, cwd, timeout_ms }, ctx) => runInSandbox(ctx, program, args, cwd, timeout_ms),
});
