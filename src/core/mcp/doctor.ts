import type { McpManager } from './manager.js';

/** One `pepe doctor` finding (the same shape as core/doctor.ts's, area "mcp"). */
export interface McpFinding {
  level: 'problem' | 'warning';
  area: 'mcp';
  message: string;
}

/**
 * The MCP part of `pepe doctor`: every enabled server is started and asked for its tools (then
 * stopped again); one that cannot is a problem, a raw credential in its entry a warning.
 */
export async function mcpFindings(mcp: Pick<McpManager, 'describe' | 'check' | 'stop'>): Promise<McpFinding[]> {
  const findings: McpFinding[] = [];
  const rows = mcp.describe();
  await Promise.all(
    rows.map(async (row) => {
      if (row.invalid || row.disabled) return;
      for (const w of row.warnings) findings.push({ level: 'warning', area: 'mcp', message: w });
      const check = await mcp.check(row.name);
      await mcp.stop(row.name);
      if (!check.ok) findings.push({ level: 'problem', area: 'mcp', message: `MCP server ${row.name} did not start or list its tools: ${check.error ?? 'no answer'}` });
      else if (check.tools.length === 0) findings.push({ level: 'warning', area: 'mcp', message: `MCP server ${row.name} started but offers no tools` });
    }),
  );
  return findings.sort((a, b) => a.message.localeCompare(b.message));
}
