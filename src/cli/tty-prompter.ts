import type { Interface } from 'node:readline/promises';
import { visible } from '../core/display.js';
import { type ApprovalRequest, type Decision, type Prompter } from '../core/permissions/approval.js';
import { approvalView } from '../core/permissions/approval-view.js';
import { previewChange } from '../core/tools/change-preview.js';
import { unifiedDiff } from '../core/tools/line-diff.js';

const MAX_DIFF_LINES = 200;

/**
 * The CLI's permission prompt (spec 5.2): the same view as the VS Code modal (approval-view.ts):
 * who wants to do what, the call once, the risks in plain words, then one line of choices: `o`
 * once, `?` the wider scopes (each explained; the wide ones confirmed with "yes"), `d` deny.
 * Anything else, an empty line, Ctrl+D or Ctrl+C means deny. Everything shown is
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
    const view = approvalView(request);
    const lines = [
      '',
      `⚠ ${view.headline}${view.via ? ` (${view.via})` : ''}`,
      ...view.body.split('\n').map((l) => `  ${l}`),
      ...view.risks.map((r) => `  risk: ${r}`),
      ...(view.why ? [`  why: ${view.why}`] : []),
      ...(await this.diffLines(request)),
      `  ${view.scopes.length ? '[o] allow once   [?] allow for longer…   [d] deny (default)' : '[o] allow once   [d] deny (default)'}`,
      '',
    ];
    this.write(lines.join('\n'));
    const question = async (text: string): Promise<string | null> => {
      try {
        return (await this.rl.question(text, signal ? { signal } : {})).trim();
      } catch {
        return null;
      }
    };
    for (;;) {
      const answer = await question('approve? ');
      if (answer === null) {
        // Given up by the barrier (permissions.prompt_timeout_seconds): say that nothing was decided.
        const why = signal?.aborted ? (signal.reason as { name?: string; message?: string } | undefined) : undefined;
        if (why?.name === 'TimeoutError') this.write(`\n${why.message ?? 'no answer in time'}: not approved, not denied; the call waits in pepe approvals list\n`);
        return { kind: 'deny', reason: 'the prompt was closed' };
      }
      if (answer === 'o' || answer === 'y') return { kind: 'allow_once' };
      if (answer === '?' && view.scopes.length) {
        this.write(view.scopes.map((c) => `  [${c.key}] ${c.dangerous ? '⚠ ' : ''}${c.label}: ${c.explain}`).join('\n') + '\n');
        continue;
      }
      // The scope keys work without opening the list first; a wide one is confirmed.
      const scope = view.scopes.find((c) => c.key === answer);
      if (scope) {
        if (!scope.dangerous) return { kind: scope.kind } as Decision;
        const sure = await question(`${scope.label}: ${scope.explain}. Type yes to confirm: `);
        if (sure === 'yes') return { kind: scope.kind } as Decision;
        this.write('  not confirmed: nothing was granted\n');
        continue;
      }
      break;
    }
    const reason = (await question('reason for the agent (optional): ')) ?? '';
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
