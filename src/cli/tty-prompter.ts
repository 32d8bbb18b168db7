import type { Interface } from 'node:readline/promises';
import { visible, type ApprovalRequest, type Decision, type Prompter } from '../core/permissions/index.js';

const CHOICES = [
  '[o] allow once',
  '[t] for the rest of this task',
  '[s] this session, this exact call',
  '[r] this session, calls with these risks',
  '[a] this session, any arguments',
  '[A] always, calls with these risks (saved)',
  '[A*] always, any arguments (saved)',
  '[bypass] STOP ASKING for this agent this session',
  '[d] deny (default)',
];
const ONCE_ONLY = ['[o] allow once', '[d] deny (default)'];

/**
 * The CLI's permission prompt (spec 5.2): shows agent, chain, tool, the call and the risks, then
 * reads an answer. Anything else, an empty line, Ctrl+D or Ctrl+C means deny. Everything shown is
 * made visible and inert first: a model-written escape sequence or carriage return cannot redraw
 * the prompt.
 */
export class TtyPrompter implements Prompter {
  readonly interactive = true;

  constructor(private readonly rl: Interface, private readonly write: (text: string) => void) {}

  async ask(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision> {
    const chain = request.chain.length > 1 ? ` (via ${request.chain.map(visible).join(' → ')})` : '';
    const risks = request.risks.length ? request.risks.join(', ') : 'none';
    const lines = [
      '',
      `⚠ approval needed: ${visible(request.agent)}${chain} wants to run ${visible(request.tool)}`,
      ...visible(request.summary).split('\n').map((l) => `  ${l}`),
      `  risks: ${risks}`,
      `  why: ${visible(request.whyText)}`,
      ...(request.onceOnly ? ONCE_ONLY : CHOICES).map((c) => `  ${c}`),
      '',
    ];
    this.write(lines.join('\n'));
    let answer: string;
    try {
      answer = (await this.rl.question('approve? ', signal ? { signal } : {})).trim();
    } catch {
      return { kind: 'deny', reason: 'the prompt was closed' };
    }
    const decision = decisionFor(answer, !!request.onceOnly);
    if (decision) return decision;
    let reason = '';
    try {
      reason = (await this.rl.question('reason for the agent (optional): ', signal ? { signal } : {})).trim();
    } catch {
      // no reason
    }
    return reason ? { kind: 'deny', reason } : { kind: 'deny' };
  }
}

function decisionFor(answer: string, onceOnly: boolean): Decision | null {
  if (answer === 'o' || answer === 'y') return { kind: 'allow_once' };
  if (onceOnly) return null;
  switch (answer) {
    case 't':
      return { kind: 'allow_task' };
    case 's':
      return { kind: 'allow_session' };
    case 'r':
      return { kind: 'allow_session_risks' };
    case 'a':
      return { kind: 'allow_session_any' };
    case 'A':
      return { kind: 'always' };
    case 'A*':
      return { kind: 'always_any' };
    case 'bypass':
      return { kind: 'bypass_session' };
    default:
      return null;
  }
}
