import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ChildAgentRequest, CoreEvent, CoreHost, SlotRef, StateScope } from '../../../src/core/cores/host.js';
import { scaffoldCore } from '../../../src/core/cores/scaffold.js';
import type { ChildAgentResult, JsonValue, SpawnedAgent, ToolResult } from '../../../src/core/cores/sdk-types.js';

const made: string[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pepe-core-'));
  made.push(dir);
  return dir;
}

export function cleanup(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A fresh scaffolded core (`pepe init`). */
export function scaffolded(): string {
  const dir = tempDir();
  scaffoldCore(dir);
  return dir;
}

export function write(dir: string, rel: string, content: string): string {
  const file = join(dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

export interface SlotSpec {
  manifest?: Partial<Record<string, string>>;
  /** Module source; file name module.ts unless `file` says otherwise. */
  module: string;
  file?: string;
}

/** Writes agent/<phase>/<id>/{slot.yaml,module.ts}. */
export function slot(dir: string, phase: string, id: string, spec: SlotSpec): void {
  const fields: Record<string, string> = { entrypoint: 'module:process', failure_policy: 'soft', history_policy: 'persist', ...spec.manifest };
  const yaml = Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  write(dir, `agent/${phase}/${id}/slot.yaml`, `${yaml}\n`);
  write(dir, `agent/${phase}/${id}/${spec.file ?? 'module.ts'}`, spec.module);
}

export function pipelines(dir: string, p: { bootstrap?: string[]; input?: string[]; inputParallel?: string[]; output?: string[]; outputParallel?: string[] }): void {
  const list = (ids: string[] = []) => `[${ids.join(', ')}]`;
  write(
    dir,
    'agent/pipelines.yaml',
    `schema_version: 1
bootstrap:
  serial: ${list(p.bootstrap)}
input:
  serial: ${list(p.input ?? ['base_input'])}
  parallel: ${list(p.inputParallel)}
output:
  serial: ${list(p.output ?? ['base_output'])}
  parallel: ${list(p.outputParallel)}
`,
  );
}

/** A CoreHost that records what slots asked for. */
export class FakeHost implements CoreHost {
  readonly agent = 'tester';
  readonly sessionId = 'sess-1';
  readonly workspace: string;
  events: CoreEvent[] = [];
  toolCalls: { name: string; args: Record<string, unknown>; caller: SlotRef }[] = [];
  agentRuns: ChildAgentRequest[] = [];
  spawns: ChildAgentRequest[] = [];
  skills: string[] = [];
  state: Record<StateScope, Record<string, JsonValue>> = { session: {}, core: {} };
  persisted: { scope: StateScope; value: Record<string, JsonValue> }[] = [];
  toolAnswer: (name: string, args: Record<string, unknown>) => ToolResult = (name) => ({ content: `ran ${name}`, isError: false });

  constructor(workspace = '/work/space') {
    this.workspace = workspace;
  }

  async callTool(name: string, args: Record<string, unknown>, caller: SlotRef): Promise<ToolResult> {
    this.toolCalls.push({ name, args, caller });
    return this.toolAnswer(name, args);
  }

  async runAgent(request: ChildAgentRequest): Promise<ChildAgentResult> {
    this.agentRuns.push(request);
    return { agent: request.agent, sessionId: 'child-1', turnId: 'ct1', content: `child says: ${request.text}`, status: 'ok', result: null, deliveries: [], tools: [], metadata: {} };
  }

  spawnAgent(request: ChildAgentRequest): SpawnedAgent {
    this.spawns.push(request);
    return {
      taskId: 'task-1',
      agent: request.agent,
      status: 'running',
      wait: async () => ({ agent: request.agent, sessionId: 'child-2', turnId: 'ct2', content: 'done', status: 'ok', result: null, deliveries: [], tools: [], metadata: {} }),
    };
  }

  async activateSkill(name: string, _caller?: SlotRef, coreText?: string): Promise<boolean> {
    if (name === 'nope' && coreText === undefined) return false;
    this.skills.push(coreText === undefined ? name : `${name}:${coreText}`);
    return true;
  }

  async loadState(scope: StateScope): Promise<Record<string, JsonValue>> {
    return structuredClone(this.state[scope]);
  }

  async persistState(scope: StateScope, value: Record<string, JsonValue>): Promise<void> {
    this.persisted.push({ scope, value });
    this.state[scope] = structuredClone(value);
  }

  emit(event: CoreEvent): void {
    this.events.push(event);
  }
}

export const turnArgs = (rawText = 'hello there') => ({ rawText, turnId: 't1', history: [] });
