/**
 * The activation time the lifecycle check measures, as it logs it (lifecycle.test.ts, in the
 * extension host) and as the runner reads it back from the output for `npm run bench`
 * (run.ts → .test-tmp/extension-figures.json): one line format, kept in one place.
 */
const PREFIX = 'activation of a fresh instance (load + activate()):';

export function activationLine(ms: number): string {
  return `${PREFIX} ${ms.toFixed(1)} ms`;
}

/** Every activation time logged in `lines`, in order. */
export function activationSamples(lines: readonly string[]): number[] {
  return lines.flatMap((line) => {
    const at = line.indexOf(PREFIX);
    if (at < 0) return [];
    const m = /^ (\d+(?:\.\d+)?) ms/.exec(line.slice(at + PREFIX.length));
    return m ? [Number(m[1])] : [];
  });
}
