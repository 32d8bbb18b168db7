/** Nested repositories a checkpoint left out, said for a person (imports nothing: the CLI's light half uses it). */

/** "skipped nested repository at a, b" (the first few). */
export function skippedText(skipped: string[]): string {
  const shown = skipped.slice(0, 5).join(', ');
  return `skipped nested ${skipped.length === 1 ? 'repository' : 'repositories'} at ${shown}${skipped.length > 5 ? ` and ${skipped.length - 5} more` : ''}`;
}
