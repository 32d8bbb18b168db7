/** How a shell word is shown to a person: as is when plain, else single-quoted (`'it'\''s'`). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A value as short JSON for a prompt or a hint, cut at `max` characters. */
export function preview(value: unknown, max: number): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}
