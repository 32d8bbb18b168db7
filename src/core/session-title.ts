/** Longest title a session gets from its first message (in characters, not UTF-16 units). */
export const TITLE_MAX = 60;

/** A session's title from its first message: its first non-blank line, control characters removed, shortened. */
export function sessionTitle(text: string): string {
  const line = (text.split('\n').find((l) => l.trim()) ?? text).replace(/[\p{Cc}\p{Cf}]+/gu, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length > TITLE_MAX ? `${chars.slice(0, TITLE_MAX - 1).join('').trimEnd()}…` : line || 'New session';
}
