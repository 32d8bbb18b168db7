/**
 * Where in config.json a reported problem is, so the "config.json has a problem" row opens the file
 * there. The core's messages say it in one of two ways: "not valid JSON at line L, column C" (or
 * "at line L") for a file that does not parse, and a JSON path first ("agents.triage.tools[0]: …")
 * for a value the schema refuses. A path is found in the text by walking its keys in order (the
 * deepest key found wins). Unknown: undefined, and the file opens at the top.
 */
export interface ProblemPosition {
  line: number;
  column: number;
}

export function problemPosition(message: string, text: string | undefined): ProblemPosition | undefined {
  const at = /\bat line (\d+)(?:, column (\d+))?/.exec(message);
  if (at) return { line: Number(at[1]), column: at[2] ? Number(at[2]) : 1 };
  if (text === undefined) return undefined;
  // "config.json: agents.triage.tools[0]: …" or "agents.triage.tools[0]: …"
  const path = /(?:^|: )((?:[A-Za-z0-9_$-]+)(?:\.[A-Za-z0-9_$-]+|\[\d+\])*): /.exec(message)?.[1];
  if (!path) return undefined;
  const keys = path.split(/\.|\[\d+\]/).filter(Boolean);
  let from = 0;
  let found = -1;
  for (const key of keys) {
    const i = text.indexOf(`${JSON.stringify(key)}`, from);
    if (i < 0) break;
    // A key is a quoted string followed by a colon.
    if (!/^\s*:/.test(text.slice(i + key.length + 2))) {
      from = i + 1;
      continue;
    }
    found = i;
    from = i + key.length + 2;
  }
  if (found < 0) return undefined;
  const before = text.slice(0, found);
  return { line: before.split('\n').length, column: found - before.lastIndexOf('\n') };
}
