import * as vscode from 'vscode';
import { launcherNeedsNetwork } from '../../core/config/launcher-network.js';
import type { Pepe } from '../../core/pepe.js';
import { InputFlow } from '../commands/input-flow.js';
import { Cancelled } from '../commands/ui.js';
import type { McpUiDeps } from './mcp-ui-deps.js';

const TITLE = 'Pepe: Add MCP Server';
const NAME = /^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/;

type NetworkChoice = vscode.QuickPickItem & { network: boolean };

/**
 * Add MCP Server… (issue 26): name → command line or URL → network (local servers; the choice
 * that fits the command is first) → the agents that may use it (the current one ticked) on one
 * quick input, then the new server is started once and its tools are listed, or what went wrong.
 */
export async function mcpAdd(deps: McpUiDeps, refresh: () => void): Promise<void> {
  const pepe = await deps.host.get();
  const existing = new Set(pepe.mcpDescribe().map((r) => r.name));
  const agents = Object.keys(pepe.config.agents ?? {});
  const flow = new InputFlow(TITLE, agents.length ? 4 : 3);
  let name: string;
  let server: Record<string, unknown>;
  let picked: string[] = [];
  try {
    name = await flow.text({
      title: `${TITLE}: name`,
      prompt: 'A short name for the server',
      placeholder: 'a short name for the server, e.g. everything',
      validate: (v) => (!NAME.test(v) ? 'letters and digits, with single - or _ between them' : existing.has(v) ? `a server named "${v}" already exists` : undefined),
    });
    const target = (
      await flow.text({
        title: `${TITLE}: how to reach ${name}`,
        prompt: 'A command line (local server) or an https:// URL (remote server)',
        placeholder: 'a command such as npx -y @modelcontextprotocol/server-everything, or https://…',
        validate: (v) => (!v.trim() ? 'a command line or a URL' : undefined),
      })
    ).trim();
    const remote = /^https?:\/\//i.test(target);
    const words = remote ? [] : splitCommandLine(target);
    if (remote) {
      server = { url: target };
      flow.setTotalSteps(agents.length ? 3 : 2);
    } else {
      const why = launcherNeedsNetwork(words);
      const allow: NetworkChoice = { label: 'Allow network', description: why ? `needed: ${why}` : 'for a server that calls web services or downloads', network: true };
      const deny: NetworkChoice = { label: 'No network', description: why ? `${name} would not start: ${why}` : 'it works on this machine only (safer)', network: false };
      const choice = await flow.pick(why ? [allow, deny] : [deny, allow], { title: `${TITLE}: may ${name} reach the network?`, placeholder: 'network access for the server' });
      server = { command: words[0], ...(words.length > 1 ? { args: words.slice(1) } : {}), ...(choice.network ? { network: true } : {}) };
    }
    if (agents.length) {
      const current = deps.defaultAgent(pepe) ?? agents[0];
      const rows = await flow.pickMany(
        agents.map((a) => ({ label: a, picked: a === current })),
        { title: `${TITLE}: agents that may use ${name}`, placeholder: 'each call of its tools is still asked first' },
      );
      picked = rows.map((r) => r.label);
    }
  } catch (e) {
    if (e instanceof Cancelled) return;
    throw e;
  } finally {
    flow.dispose();
  }
  try {
    const { warnings } = await pepe.mcpAdd(name, server, { agents: picked });
    for (const w of warnings) void vscode.window.showWarningMessage(w);
  } catch (e) {
    return void vscode.window.showErrorMessage(`Pepe: ${e instanceof Error ? e.message : String(e)}`);
  }
  refresh();
  await testServer(pepe, name, picked, deps, refresh);
}

/** Starts the new server once and says what it offers (its tools by their own names). */
async function testServer(pepe: Pepe, name: string, agents: string[], deps: McpUiDeps, refresh: () => void): Promise<void> {
  const who = agents.length ? `${agents.join(', ')} may use it` : 'no agent uses it yet';
  const restricted = pepe.mcpRestriction();
  if (restricted) return void vscode.window.showInformationMessage(`Pepe: MCP server ${name} added (${who}). ${restricted}.`);
  const { check, tools } = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Pepe: starting MCP server ${name}…` }, () => pepe.mcpToolRows(name));
  refresh();
  deps.log.info(`MCP server ${name} added; test: ${check.ok ? `${tools.length} tools in ${check.ms} ms` : check.error ?? 'failed'}`);
  if (!check.ok) {
    const choice = await vscode.window.showErrorMessage(`Pepe: MCP server ${name} was added, but it did not start: ${(check.error ?? 'no answer').split('\n')[0]}`, 'Open config.json', 'Remove It');
    if (choice === 'Open config.json') await vscode.commands.executeCommand('pepe.config.open');
    else if (choice === 'Remove It') await vscode.commands.executeCommand('pepe.mcp.remove', { kind: 'mcpServer', server: name });
    return;
  }
  const names = tools.map((t) => t.tool);
  const list = names.length ? `${names.length} tool${names.length === 1 ? '' : 's'}: ${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''}` : 'no tools';
  void vscode.window.showInformationMessage(`Pepe: MCP server ${name} works and offers ${list}. ${who[0]!.toUpperCase()}${who.slice(1)}; each call is asked first.`);
}

/** Words of a command line: spaces separate, single or double quotes group (no expansion of any kind). */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}
