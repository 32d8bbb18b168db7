import type { TurnResult } from '../../core/events.js';

/**
 * One chat panel's plan mode (spec 10): the person's choice (the mode switch, /plan, /act) or,
 * until they make one, the agent's `plan_mode` default; and the last plan a turn in plan mode
 * answered with, which "Start" hands over as the next message in acting mode.
 */
export class PanelPlan {
  private choice: boolean | undefined;
  private plan: string | null = null;

  /** Plan mode as the next turn runs it. */
  on(agentDefault: boolean | undefined): boolean {
    return this.choice ?? agentDefault === true;
  }

  set(plan: boolean): void {
    this.choice = plan;
  }

  /** What the next turn is asked for: nothing until the person chose (the agent's default applies). */
  turnOptions(): { planMode?: boolean } {
    return this.choice === undefined ? {} : { planMode: this.choice };
  }

  /** A turn ended: an answer given in plan mode is the plan to start. */
  finished(result: TurnResult): void {
    this.plan = result.planMode && result.status === 'ok' && result.content.trim() ? result.content : null;
  }

  get canStart(): boolean {
    return this.plan !== null;
  }

  /** The plan, once: "Start" leaves plan mode. */
  take(): string | null {
    const plan = this.plan;
    this.plan = null;
    if (plan !== null) this.choice = false;
    return plan;
  }

  /** Another conversation is shown: its plan (if any) is not this one. */
  forget(): void {
    this.plan = null;
  }
}
