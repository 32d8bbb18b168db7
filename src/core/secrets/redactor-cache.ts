import { Redactor } from './redact.js';

/**
 * The last Redactor built, handed out again while the secret values are the same (in the same
 * order): building one compiles a pattern of every spelling of every secret, which a transcript
 * line or a tool result should not pay for each time. Values that changed (a key set, an MCP input
 * given) build a new one at once, so nothing is masked with an outdated list.
 */
export class RedactorCache {
  private last: { secrets: readonly string[]; redactor: Redactor } | null = null;

  get(secrets: readonly string[]): Redactor {
    const last = this.last;
    if (last && sameList(last.secrets, secrets)) return last.redactor;
    const redactor = new Redactor(secrets);
    this.last = { secrets: [...secrets], redactor };
    return redactor;
  }
}

/** The same strings in the same order. */
export function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
