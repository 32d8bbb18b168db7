import type { Interface } from 'node:readline/promises';
import { visible, type ApprovalRequest, type Decision, type Prompter } from '../core/permissions/index.js';
import { previewChange } from '../core/tools/change-preview.js';
import { unifiedDiff } from '../core/tools/line-diff.js';

const MAX_DIFF_LINES = 200;

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

  constructor(
    private readonly rl: Interface,
    private readonly write: (text: string) => void,
    private readonly color = !process.env.NO_COLOR,
  ) {}

  async ask(request: ApprovalRequest, signal?: AbortSignal): Promise<Decision> {
    const chain = request.chain.length > 1 ? ` (via ${request.chain.map(visible).join(' → ')})` : '';
    const risks = request.risks.length ? request.risks.join(', ') : 'none';
    const lines = [
      '',
      `⚠ approval needed: ${visible(request.agent)}${chain} wants to run ${visible(request.tool)}`,
      ...visible(request.summary).split('\n').map((l) => `  ${l}`),
      `  risks: ${risks}`,
      `  why: ${visible(request.whyText)}`,
      ...(await this.diffLines(request)),
      ...(request.onceOnly ? ONCE_ONLY : CHOICES).map((c) => `  ${c}`),
      '',
    ];
    this.write(lines.join('\n'));
    let answer: string;
    try {
      answer = (await this.rl.question('approve? ', signal ? { signal } : {})).trim();
    } catch {
      // Given up by the barrier (permissions.prompt_timeout_seconds): say that nothing was decided.
      const why = signal?.aborted ? (signal.reason as { name?: string; message?: string } | undefined) : undefined;
      if (why?.name === 'TimeoutError') this.write(`\n${why.message ?? 'no answer in time'}: not approved, not denied; the call waits in pepe approvals list\n`);
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

  /** For write_file and edit_file: the change as a coloured unified diff, every line made inert. */
  private async diffLines(request: ApprovalRequest): Promise<string[]> {
    // The preview only reads; Pepe's home is not needed to show a diff, so the workspace stands in for it.
    const preview = await previewChange(request.tool, request.args, { workspace: request.cwd, paths: { home: request.cwd } as never }).catch(() => null);
    if (!preview) return [];
    if (preview.kind === 'unavailable') return [`  no diff to show: ${visible(preview.reason)}`];
    const diff = unifiedDiff(preview.before, preview.after, { path: preview.path });
    if (!diff) return ['  (no change: the file already has this content)'];
    const paint = (code: string, text: string) => (this.color ? `\x1b[${code}m${text}\x1b[0m` : text);
    const lines = diff.split('\n');
    const shown = lines.slice(0, MAX_DIFF_LINES).map((l) => {
      const text = `  ${visible(l)}`;
      if (l.startsWith('+++') || l.startsWith('---')) return paint('1', text);
      if (l.startsWith('@@')) return paint('36', text);
      if (l.startsWith('+')) return paint('32', text);
      if (l.startsWith('-')) return paint('31', text);
      return text;
    });
    if (lines.length > MAX_DIFF_LINES) shown.push(`  … ${lines.length - MAX_DIFF_LINES} more diff lines not shown`);
    return [preview.kind === 'change' && preview.created ? '  new file:' : '  change:', ...shown];
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
