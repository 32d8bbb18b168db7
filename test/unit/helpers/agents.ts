import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Decision, Prompter, ApprovalRequest } from '../../../src/core/permissions/index.js';
import type { TurnEvent } from '../../../src/core/events.js';
import type { TempHome } from './home.js';

export type Step =
  | { text: string; delay_ms?: number; chunk_size?: number }
  | { tool_calls: { name: string; arguments: unknown }[]; text?: string }
  | { echo_prompt: true };

/** Writes a mock script and returns its model id (`mock:<path>`). */
export function script(home: TempHome, name: string, steps: Step[]): string {
  const file = join(home.dir, `${name}.script.json`);
  writeFileSync(file, JSON.stringify({ steps }));
  return `mock:${file}`;
}

/** A person at the keyboard who answers with the queued decisions, and remembers what was asked. */
export class ScriptedPrompter implements Prompter {
  readonly interactive = true;
  readonly requests: ApprovalRequest[] = [];
  constructor(private readonly decisions: Decision[] = []) {}
  async ask(request: ApprovalRequest): Promise<Decision> {
    this.requests.push(request);
    const next = this.decisions.shift();
    if (!next) throw new Error(`unexpected approval request for ${request.tool}`);
    return next;
  }
}

export function collectEvents(): { events: TurnEvent[]; onEvent: (e: TurnEvent) => void; types: () => string[] } {
  const events: TurnEvent[] = [];
  return { events, onEvent: (e) => events.push(e), types: () => events.map((e) => e.type) };
}
