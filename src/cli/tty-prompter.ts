import type { Interface } from 'node:readline/promises';
import type { ApprovalRequest, Decision, Prompter } from '../core/permissions/index.js';

const CHOICES = '[o] allow once  [s] this session  [a] this session, any arguments  [A] always  [d] deny (default)';

/**
 * The CLI's permission prompt (spec 5.2): shows agent, chain, tool and the exact call, then reads
 * one letter. Anything else, an empty line, Ctrl+D or Ctrl+C means deny.
 */
export class TtyPrompter implements Prompter {
  readonly interactive = true;

  constructor(private readonly rl: Interface, private readonly write: (text: string) => void) {}

  async ask(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision> {
    const chain = request.chain.length > 1 ? ` (via ${request.chain.join(' → ')})` : '';
    this.write(
      [
        '',
        `⚠ approval needed: ${request.agent}${chain} wants to run ${request.tool}`,
        ...request.summary.split('\n').map((l) => `  ${l}`),
        `  why: ${request.whyText}`,
        `  ${CHOICES}`,
        '',
      ].join('\n'),
    );
    let answer: string;
    try {
      answer = (await this.rl.question('approve? ', signal ? { signal } : {})).trim();
    } catch {
      return { kind: 'deny', reason: 'the prompt was closed' };
    }
    switch (answer) {
      case 'o':
      case 'y':
        return { kind: 'allow_once' };
      case 's':
        return { kind: 'allow_session' };
      case 'a':
        return { kind: 'allow_session_any' };
      case 'A':
        return { kind: 'always' };
      default: {
        let reason = '';
        try {
          reason = (await this.rl.question('reason for the agent (optional): ', signal ? { signal } : {})).trim();
        } catch {
          // no reason
        }
        return reason ? { kind: 'deny', reason } : { kind: 'deny' };
      }
    }
  }
}
