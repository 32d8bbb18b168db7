/**
 * Tool names in VS Code's and Claude Code's agent files, as Pepe's built-in tools. A name with no
 * counterpart is left out (never mapped to something that can do more, such as a shell).
 */

const CLAUDE: Record<string, string[]> = {
  Read: ['read_file'],
  Write: ['write_file'],
  Edit: ['edit_file'],
  MultiEdit: ['edit_file'],
  Bash: ['bash'],
  LS: ['list_dir'],
  Glob: ['list_dir'],
  WebSearch: ['web_search'],
};

const VSCODE: Record<string, string[]> = {
  codebase: ['read_file', 'list_dir'],
  read: ['read_file', 'list_dir'],
  readFile: ['read_file'],
  listDirectory: ['list_dir'],
  search: ['read_file', 'list_dir'],
  edit: ['write_file', 'edit_file'],
  editFiles: ['write_file', 'edit_file'],
  createFile: ['write_file'],
  runCommands: ['bash'],
  runInTerminal: ['bash'],
  execute: ['bash'],
};

export function mapForeignTools(format: 'vscode' | 'claude', names: readonly string[]): { tools: string[]; mcp: string[]; ignored: string[] } {
  const table = format === 'vscode' ? VSCODE : CLAUDE;
  const tools = new Set<string>();
  const mcp: string[] = [];
  const ignored: string[] = [];
  for (const n of names) {
    const mapped = Object.hasOwn(table, n) ? table[n]! : undefined;
    if (mapped) mapped.forEach((t) => tools.add(t));
    else if (format === 'claude' && /^mcp__[A-Za-z0-9_-]+__/.test(n)) mcp.push(n);
    else if (format === 'vscode' && /^[A-Za-z0-9_-]+\/\*$/.test(n)) mcp.push(n.slice(0, -2));
    else ignored.push(n);
  }
  return { tools: [...tools].sort(), mcp, ignored };
}
