import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RememberedTarget {
  agent: string | null;
  sessionId: string | null;
  model: string | null;
}

interface Entry extends RememberedTarget {
  at: number;
}

const KEEP = 50;

/**
 * Which conversation each chat panel shows, by panel id, in a small file of the extension's
 * storage. The webview's own state (getState/setState) carries the same data, but the workbench
 * persists it lazily (in a browser workbench, only at its periodic flush): a panel whose session
 * started moments before a reload would come back empty. The panel id itself is in the webview
 * state from the panel's first moment, so it is what the serializer finds the target by.
 */
export class PanelMemory {
  private entries: Record<string, Entry> = {};
  private readonly file: string;

  constructor(private readonly dir: string) {
    this.file = join(dir, 'chat-panels.json');
    try {
      this.entries = JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, Entry>;
    } catch {
      this.entries = {};
    }
  }

  get(panelId: string): RememberedTarget | undefined {
    const e = this.entries[panelId];
    return e ? { agent: e.agent, sessionId: e.sessionId, model: e.model } : undefined;
  }

  set(panelId: string, target: RememberedTarget): void {
    const prev = this.entries[panelId];
    if (prev && prev.agent === target.agent && prev.sessionId === target.sessionId && prev.model === target.model) return;
    this.entries[panelId] = { ...target, at: Date.now() };
    const ids = Object.keys(this.entries).sort((a, b) => this.entries[b]!.at - this.entries[a]!.at);
    for (const id of ids.slice(KEEP)) delete this.entries[id];
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(`${this.file}.tmp`, JSON.stringify(this.entries));
      renameSync(`${this.file}.tmp`, this.file);
    } catch {
      // best effort: the webview state still restores what the workbench saved
    }
  }
}
