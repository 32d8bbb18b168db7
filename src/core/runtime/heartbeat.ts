import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { AgentConfig, PepeConfig } from '../config/schema.js';
import { errorMessage } from '../errors.js';
import type { RunTurnOptions, TurnResult } from '../events.js';
import type { SlotService } from '../slots/slot-service.js';
import type { SessionStore } from './session-store.js';

/** What a heartbeat needs: the configuration, the heartbeat_interval slot, turns and sessions. */
export interface HeartbeatDeps {
  config: () => PepeConfig;
  slots: Pick<SlotService, 'heartbeatAllowed'>;
  run: (opts: RunTurnOptions) => Promise<TurnResult>;
  sessions: Pick<SessionStore, 'delete' | 'rename'>;
  /** `$PEPE_HOME/agents`: where each agent's HEARTBEAT.md (its standing instructions) lives. */
  agentsDir?: string;
}

export const HEARTBEAT_OK = 'HEARTBEAT_OK';
const DEFAULT_PROMPT = `Heartbeat: check whether anything needs your attention. If nothing does, answer exactly ${HEARTBEAT_OK}.`;

/** HEARTBEAT.md beyond this many characters is cut (it is read on every pulse, into the prompt). */
export const MAX_HEARTBEAT_FILE_CHARS = 16_000;

/**
 * Is this answer the silence sentinel? Models decorate it: any case, surrounding whitespace,
 * markdown emphasis or code ticks, quotes, brackets and a trailing period or exclamation mark are
 * tolerated; any other word makes it a real answer.
 */
export function isHeartbeatOk(answer: string): boolean {
  const core = answer.trim().replace(/^[\s*_`"'\u201C\u201D\u2018\u2019([{<>]+/u, '').replace(/[\s*_`"'\u201C\u201D\u2018\u2019)\]}<>.!]+$/u, '');
  return core.toUpperCase() === HEARTBEAT_OK;
}

/** The pulse prompt: the configured (or default) prompt, then the agent's HEARTBEAT.md if it has one. */
export function pulsePrompt(agentConfig: AgentConfig, standing: string | null): string {
  const prompt = agentConfig.heartbeat?.prompt ?? DEFAULT_PROMPT;
  const text = standing?.trim();
  if (!text) return prompt;
  const cut = text.length > MAX_HEARTBEAT_FILE_CHARS ? `${text.slice(0, MAX_HEARTBEAT_FILE_CHARS)}\n[… HEARTBEAT.md cut at ${MAX_HEARTBEAT_FILE_CHARS} characters]` : text;
  return `${prompt}\n\nYour standing instructions for every heartbeat (HEARTBEAT.md):\n${cut}\n\nIf none of them needs anything from you now, answer exactly ${HEARTBEAT_OK}.`;
}

export type PulseOutcome =
  | { agent: string; outcome: 'vetoed'; by: string }
  | { agent: string; outcome: 'quiet'; sessionId: null }
  | { agent: string; outcome: 'delivered'; sessionId: string; content: string }
  | { agent: string; outcome: 'failed'; error: string };

/** `"09:00-18:00"` → is `now` (local time) inside? Ranges may wrap midnight (`"22:00-06:00"`). */
export function withinActiveHours(range: string | undefined, now: Date): boolean {
  if (!range) return true;
  const [from, to] = range.split('-').map((t) => {
    const [h, m] = t.split(':').map(Number);
    return h! * 60 + m!;
  });
  const minute = now.getHours() * 60 + now.getMinutes();
  return from! <= to! ? minute >= from! && minute < to! : minute >= from! || minute < to!;
}

/**
 * Heartbeat (spec 4.7): an agent with `heartbeat` gets a pulse every `every_minutes` within
 * `active_hours`. When the static schedule says a pulse is due, the heartbeat_interval slot may
 * veto it; otherwise a turn runs with the heartbeat prompt, with nobody to ask (spec 5.4). Its
 * answer lands in the agent's chat as a session of its own, unless it is exactly HEARTBEAT_OK.
 */
export class Heartbeat {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(private readonly deps: HeartbeatDeps, private readonly stateFile: string) {}

  private lastPulses(): Record<string, string> {
    try {
      return JSON.parse(readFileSync(this.stateFile, 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  }

  /** The agent's HEARTBEAT.md, read on every pulse (it may have changed since the last one). */
  private standingInstructions(agent: string): string | null {
    if (!this.deps.agentsDir) return null;
    try {
      return readFileSync(join(this.deps.agentsDir, agent, 'HEARTBEAT.md'), 'utf8');
    } catch {
      return null;
    }
  }

  /** Agents whose static schedule has a pulse due at `now`. */
  due(now: Date = new Date()): { agent: string; config: AgentConfig }[] {
    const last = this.lastPulses();
    const out: { agent: string; config: AgentConfig }[] = [];
    for (const [agent, config] of Object.entries(this.deps.config().agents ?? {})) {
      const hb = config.heartbeat;
      if (!hb || !withinActiveHours(hb.active_hours, now)) continue;
      const previous = last[agent] ? Date.parse(last[agent]) : 0;
      if (now.getTime() - previous >= hb.every_minutes * 60_000) out.push({ agent, config });
    }
    return out;
  }

  /** Fires every due pulse once (what `pepe heartbeat run` does, e.g. from cron). */
  async runDue(now: Date = new Date()): Promise<PulseOutcome[]> {
    const outcomes: PulseOutcome[] = [];
    const fired: Record<string, string> = {};
    for (const { agent, config } of this.due(now)) {
      fired[agent] = now.toISOString();
      const project = config.project ?? null;
      const veto = await this.deps.slots.heartbeatAllowed(agent, project);
      if (!veto.result) {
        outcomes.push({ agent, outcome: 'vetoed', by: veto.answeredBy });
        continue;
      }
      try {
        const result = await this.deps.run({ agent, text: pulsePrompt(config, this.standingInstructions(agent)), personPresent: false, origin: 'heartbeat' });
        if (result.status === 'error') outcomes.push({ agent, outcome: 'failed', error: result.error ?? 'error' });
        else if (isHeartbeatOk(result.content)) {
          this.deps.sessions.delete(agent, result.sessionId);
          outcomes.push({ agent, outcome: 'quiet', sessionId: null });
        } else {
          this.deps.sessions.rename(agent, result.sessionId, `heartbeat ${now.toISOString().slice(0, 16).replace('T', ' ')}`);
          outcomes.push({ agent, outcome: 'delivered', sessionId: result.sessionId, content: result.content });
        }
      } catch (e) {
        outcomes.push({ agent, outcome: 'failed', error: errorMessage(e) });
      }
    }
    if (Object.keys(fired).length) {
      await mkdir(dirname(this.stateFile), { recursive: true });
      await writeFileAtomic(this.stateFile, JSON.stringify({ ...this.lastPulses(), ...fired }, null, 2));
    }
    return outcomes;
  }

  /** For a long-running host (the extension): checks once a minute; `onPulse` gets each outcome. */
  start(onPulse: (outcome: PulseOutcome) => void, everyMs = 60_000): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = true;
      this.runDue()
        .then((outcomes) => outcomes.forEach(onPulse))
        .catch(() => undefined)
        .finally(() => {
          this.running = false;
        });
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
