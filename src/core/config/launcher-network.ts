/**
 * Whether a local MCP server's command line downloads what it runs (a package runner such as
 * `npx -y PACKAGE`): such a server needs the network to start, so the setup offers network access
 * first for it and says why; any other command is offered no network first. Only the words are
 * looked at (the program's base name and, for some runners, their sub-command); nothing is run.
 */
const RUNNERS: Record<string, (args: readonly string[]) => boolean> = {
  npx: () => true,
  bunx: () => true,
  uvx: () => true,
  pipx: (a) => a[0] === 'run',
  pnpm: (a) => a[0] === 'dlx',
  yarn: (a) => a[0] === 'dlx',
  uv: (a) => a[0] === 'tool' && a[1] === 'run',
  docker: (a) => a[0] === 'run',
  podman: (a) => a[0] === 'run',
  deno: (a) => a[0] === 'run' && a.some((w) => /^(npm|jsr|https?):/.test(w)),
};

export function launcherNeedsNetwork(words: readonly string[]): string | null {
  const [program, ...args] = words;
  if (!program) return null;
  const base = program.replace(/^.*[\\/]/, '').replace(/\.(cmd|exe)$/i, '');
  const check = Object.hasOwn(RUNNERS, base) ? RUNNERS[base] : undefined;
  return check?.(args) ? `${base} downloads the server before it starts` : null;
}
