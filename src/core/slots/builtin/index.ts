import type { PepeConfig } from '../../config/schema.js';
import type { Message } from '../../messages.js';
import type { PepePaths } from '../../paths.js';
import type { ModelRef } from '../contracts.js';
import { BuiltinMemory } from './memory.js';
import { BuiltinSandbox, DEFAULT_MAX_OUTPUT_CHARS, type SandboxRunOptions, type SandboxRunResult } from './sandbox.js';
import { BuiltinWebSearch, DEFAULT_WEB_SEARCH_ENDPOINT } from './web-search.js';

/**
 * Where a surface can take over how the built-in sandbox runs a command (the VS Code
 * integrated terminal, spec 9.2). It must run the real process and report exactly what it saw.
 */
export interface SandboxSurface {
  run(agent: string | null, program: string, argv: string[], opts: SandboxRunOptions, runDirect: (opts: SandboxRunOptions) => Promise<SandboxRunResult>): Promise<SandboxRunResult>;
  /**
   * Shows what a sandbox plugin answered (or that the command was refused), so commands run by
   * any occupant are visible in the same place (spec 9.2).
   */
  mirror?(agent: string | null, program: string, argv: string[], outcome: { occupant: string; output: string; exitStatus: number } | { occupant: string; refused: string }): void;
}

/** The built-in occupants that need state (caches) or configuration. */
export class Builtins {
  readonly memory: BuiltinMemory;
  readonly webSearch: BuiltinWebSearch;
  readonly sandbox: BuiltinSandbox;

  constructor(
    paths: PepePaths,
    config: () => PepeConfig,
    private readonly surface?: SandboxSurface,
    /** The built-in compaction (spec 4.5): summarises with the model; given by the facade, which knows the providers. */
    private readonly summarise?: (messages: Message[], model: ModelRef, signal?: AbortSignal) => Promise<Message[]>,
  ) {
    this.memory = new BuiltinMemory(paths.agents);
    this.webSearch = new BuiltinWebSearch(() => config().web_search?.endpoint ?? DEFAULT_WEB_SEARCH_ENDPOINT);
    this.sandbox = new BuiltinSandbox(() => config().sandbox?.wrapper, { pepeHome: paths.home, places: () => ({ readable: config().sandbox?.readable, writable: config().sandbox?.writable }) });
    this.maxOutput = () => config().sandbox?.max_output_bytes ?? DEFAULT_MAX_OUTPUT_CHARS;
  }
  private readonly maxOutput: () => number;

  /** Spec 4.5: the built-in compaction occupant; without a summariser the messages come back unchanged. */
  compact(messages: Message[], model: ModelRef, signal?: AbortSignal): Promise<Message[]> {
    return this.summarise ? this.summarise(messages, model, signal) : Promise.resolve(messages);
  }

  /** After a sandbox plugin answered or failed: let the surface show it too. */
  mirrorSandbox(agent: string | null, program: string, argv: string[], outcome: Parameters<NonNullable<SandboxSurface['mirror']>>[3]): void {
    try {
      this.surface?.mirror?.(agent, program, argv, outcome);
    } catch {
      // A surface that cannot show a command never changes what the agent gets.
    }
  }

  runSandbox(agent: string | null, program: string, argv: string[], opts: SandboxRunOptions): Promise<SandboxRunResult> {
    const full = { maxOutputChars: this.maxOutput(), ...opts };
    const direct = (o: SandboxRunOptions) => this.sandbox.run(program, argv, o);
    return this.surface ? this.surface.run(agent, program, argv, full, direct) : direct(full);
  }
}
