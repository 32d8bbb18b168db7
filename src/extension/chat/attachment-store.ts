import { randomUUID } from 'node:crypto';
import { MAX_ATTACHMENTS } from '../../core/context-attachment-limits.js';
import type { TurnAttachment } from '../../core/context-attachments.js';
import type { AttachmentChip } from '../../protocol/messages.js';

/**
 * The context a chat panel holds for its next message (issue 17). The webview only ever sees
 * chips (id, kind, label); the content is gathered here, in the host, with editor-context.ts, and
 * handed to the turn as `attachments` when the message that names the chips is sent. Whatever the
 * webview sends (a dropped URI, an @ completion) is only a request: files are read by the core on
 * their real path and only inside the workspace.
 */
export class PanelAttachments {
  private readonly held = new Map<string, TurnAttachment>();

  get chips(): AttachmentChip[] {
    return [...this.held].map(([id, a]) => ({ id, kind: a.kind, label: a.label }));
  }

  add(attachment: TurnAttachment): AttachmentChip {
    // The same context attached twice is kept once (a file dropped again, @problems twice).
    for (const [id, a] of this.held) if (a.kind === attachment.kind && a.label === attachment.label) this.held.delete(id);
    if (this.held.size >= MAX_ATTACHMENTS) throw new Error(`at most ${MAX_ATTACHMENTS} attachments per message`);
    // A label is at most 500 characters in the turn (a deep path, a long terminal name).
    if (attachment.label.length > 500) attachment = { ...attachment, label: `…${attachment.label.slice(-499)}` };
    const id = randomUUID();
    this.held.set(id, attachment);
    return { id, kind: attachment.kind, label: attachment.label };
  }

  remove(id: string): void {
    this.held.delete(id);
  }

  /** The attachments the sent message names (ids the host does not hold are ignored), and forgets them. */
  take(ids: readonly string[] | undefined): TurnAttachment[] {
    const out: TurnAttachment[] = [];
    for (const id of ids ?? []) {
      const a = this.held.get(id);
      if (a) out.push(a);
      this.held.delete(id);
    }
    return out;
  }

  clear(): void {
    this.held.clear();
  }
}

