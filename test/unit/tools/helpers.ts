import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pepePaths } from '../../../src/core/paths.js';
import type { Tool, ToolContext, ToolFacts } from '../../../src/core/tools/tool.js';

/**
 * A throwaway world for the file tools: a workspace, a PEPE_HOME and an "outside" folder standing
 * for the person's home (dotfiles), all real directories on disk.
 */
export class FileWorld {
  readonly root = realpathSync(mkdtempSync(join(tmpdir(), 'pepe-files-')));
  readonly workspace = join(this.root, 'workspace');
  readonly home = join(this.root, 'pepe-home');
  readonly outside = join(this.root, 'person-home');
  readonly outsideMarks: string[] = [];
  private readonly controller = new AbortController();

  constructor() {
    for (const d of [this.workspace, this.home, this.outside]) mkdirSync(d, { recursive: true });
  }

  ctx(facts?: ToolFacts): ToolContext {
    return {
      agent: 'a',
      agentConfig: {},
      chain: ['a'],
      sessionId: 's',
      workspace: this.workspace,
      signal: this.controller.signal,
      config: {},
      env: {},
      paths: pepePaths(this.home),
      emit: () => undefined,
      markOutsideContent: (source: string) => void this.outsideMarks.push(source),
      ...(facts ? { facts } : {}),
    } as unknown as ToolContext;
  }

  /** validate → resolve → execute with the resolved facts, as the invoker does once the barrier allowed it. */
  async invoke<I>(tool: Tool<I>, args: unknown): Promise<{ facts: ToolFacts; content: string; isError: boolean; untrusted: boolean }> {
    const parsed = tool.input.parse(args);
    const facts = await tool.resolve!(parsed, this.ctx());
    const r = await tool.execute(parsed, this.ctx(facts));
    return { facts, content: r.content, isError: !!r.isError, untrusted: !!r.untrusted };
  }

  /** The turn is cancelled (Stop, Ctrl+C). */
  cancel(): void {
    this.controller.abort();
  }

  cleanup(): void {
    this.controller.abort();
    rmSync(this.root, { recursive: true, force: true });
  }
}
