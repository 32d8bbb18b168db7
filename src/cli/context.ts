import { Option, type Command } from 'commander';
import type { Pepe } from '../core/pepe.js';
import type { CreatePepeOptions } from '../core/facade/create-options.js';

/** Shared by every command: how to build the core for this invocation. */
export interface CliContext {
  /** Builds the core once per invocation; the first caller's options win. */
  pepe(options?: Omit<CreatePepeOptions, 'home'>): Promise<Pepe>;
  out(text: string): void;
}

export const parseList = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export const scopeOptions = (cmd: Command): Command =>
  cmd
    .addOption(new Option('--agent <name>', 'for one agent').conflicts('project'))
    .addOption(new Option('--project <name>', 'for one project').conflicts('agent'));
