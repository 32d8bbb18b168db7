import type { Pepe } from '../../core/pepe.js';
import { agentIntro } from '../../core/agent-intro.js';
import type { PanelState, Usage } from '../../protocol/messages.js';
import { projectFor } from '../project.js';
import type { PanelAttachments } from './attachment-store.js';
import { modelChoices } from './model-choices.js';
import type { PanelPlan } from './panel-plan.js';
import type { PanelTaint } from './panel-taint.js';
import type { UsageMeter } from './usage-meter.js';

/** What a panel's header and composer show, read from the panel (a ChatPanel). */
export interface ViewedPanel {
  readonly panelId: string;
  conversation(): { agent: string | null; sessionId: string | null; model: string | null };
  busy(): boolean;
  readonly attachments: PanelAttachments;
  readonly taint: PanelTaint;
  readonly plan: PanelPlan;
  meterFor(pepe: Pepe): UsageMeter;
}

/** The panel's state for the webview: the conversation, its figures, tier, plan mode and chips. */
export async function panelState(getPepe: () => Promise<Pepe>, panel: ViewedPanel): Promise<PanelState> {
  const { agent, sessionId, model } = panel.conversation();
  let tier: string | null = null;
  let project: string | null = null;
  let sessionUsage: Usage | null = null;
  let outsideContent: string[] = [];
  let planMode = panel.plan.on(undefined);
  let figures: Pick<PanelState, 'context' | 'budget' | 'projectSpend'> = {};
  let intro: PanelState['intro'] = null;
  try {
    const pepe = await getPepe();
    outsideContent = panel.taint.current(pepe, agent, sessionId);
    const about = agent ? agentIntro(pepe.config, agent) : null;
    intro = about ? { summary: about.summary, examples: about.examples } : null;
    if (agent && sessionId) {
      const f = pepe.conversationFigures(agent, sessionId);
      figures = { context: f.context, budget: f.budget, projectSpend: f.project ? { spendUsd: f.project.spendUsd, capUsd: f.project.capUsd } : null };
    }
    planMode = panel.plan.on(agent ? pepe.config.agents?.[agent]?.plan_mode : undefined);
    sessionUsage = panel.meterFor(pepe).sessionUsage(sessionId);
    project = projectFor(pepe.config, agent ?? undefined) ?? null;
    if (project) {
      const t = pepe.projectUsage(project).tier;
      tier = t === 'normal' ? null : t;
    }
  } catch {
    // no Pepe: nothing to say about tiers
  }
  return { panelId: panel.panelId, agent, sessionId, model, tier, project, busy: panel.busy(), sessionUsage, attachments: panel.attachments.chips, outsideContent, planMode, canStartPlan: panel.plan.canStart, intro, ...figures };
}

/** The agent and model pickers (a broken Pepe leaves no agents and the default model). */
export async function panelPickers(getPepe: () => Promise<Pepe>, agent: string | null): Promise<{ agents: { name: string; model: string | null; project: string | null }[]; models: Awaited<ReturnType<typeof modelChoices>> }> {
  try {
    const pepe = await getPepe();
    const agents = pepe.agentList().map((a) => ({ name: a.name, model: a.model, project: a.project }));
    return { agents, models: await modelChoices(pepe.config, agent) };
  } catch {
    return { agents: [], models: [{ id: null, label: 'Default', group: 'default' }] };
  }
}
