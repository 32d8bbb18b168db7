import type { AskReason } from './approval.js';
import { RISK_LABELS, type RiskHint } from './risk.js';
import { displayCommand, preview, visible } from '../display.js';
import { isBuiltinTool, TOOL_POLICIES } from './tool-policy.js';
import type { PathFact } from '../tools/tool.js';

/**
 * The words a person reads in an approval prompt (spec 5.2): what will happen, and why they are
 * being asked. The exact arguments travel next to this on the request; this is the readable part.
 * Everything model-controlled in it is made visible and inert (display.ts).
 */

const MAX_PREVIEW = 400;

/** `cwd` is the directory the call will run in, as the caller resolved it (a relative `cwd` argument is not shown). */
export function summarizeCall(agent: string, tool: string, args: unknown, cwd: string, paths: readonly PathFact[] = [], notes: readonly string[] = []): string {
  const text = describeCall(agent, tool, args, visible(cwd));
  const links = paths.filter((p) => p.viaLink).map((p) => `\n  ${visible(p.requested)} is a link: the ${p.access === 'write' ? 'write goes' : 'read comes from'} ${visible(p.real)}`);
  const outside = paths.filter((p) => !p.inside && !p.viaLink).map((p) => `\n  ${visible(p.real)} is outside the workspace`);
  return text + links.join('') + outside.join('') + notes.map((n) => `\n  ${visible(n)}`).join('');
}

function describeCall(agent: string, tool: string, args: unknown, cwd: string): string {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const said = isBuiltinTool(tool) ? TOOL_POLICIES[tool].summary?.(a, { agent, cwd }) : undefined;
  return said ?? `Call ${visible(tool)} with ${preview(args, MAX_PREVIEW)}`;
}

export function describeReasons(tool: string, why: AskReason[], hints: RiskHint[]): string {
  const parts: string[] = [];
  for (const r of why) {
    switch (r.kind) {
      case 'gated_tool':
        // Starts with "the tool": the sentence is capitalised, a tool name must stay as written.
        parts.push(r.known ? `the tool ${visible(tool)} always asks first` : `the tool ${visible(tool)} is a plugin or unknown tool, so it always asks first`);
        break;
      case 'risk_hints':
        parts.push(`the command ${hints.map((h) => `${RISK_LABELS[h.kind]} (${displayCommand(h.fragment)}${h.detail ? `: ${visible(h.detail)}` : ''})`).join('; ')}`);
        break;
      case 'unconfined':
        parts.push(`commands are not confined by a sandbox right now (${visible(r.reason)}), so every command asks first, harmless ones too`);
        break;
      case 'outside_workspace':
        parts.push(`it ${tool === 'read_file' || tool === 'list_dir' ? 'reads' : 'touches'} outside the workspace (${r.paths.map(visible).join(', ')})`);
        break;
      case 'pepe_home':
        parts.push(`it writes into Pepe's own home folder (${r.paths.map(visible).join(', ')}), which always asks and can only be allowed once`);
        break;
      case 'outbound_after_outside':
        parts.push(`web_search sends text out, and this run holds outside content, secret-looking files or files from outside the workspace (${r.sources.map(visible).join(', ')})`);
        break;
      case 'outside_content': {
        const what = r.withdrew.map((w) => ({ auto_approve: 'its pre-approval (auto_approve)', session_grant: 'the grants given for this session', risk_free_shell: 'running harmless commands unasked' })[w]);
        parts.push(`outside content entered this turn (${r.sources.map(visible).join(', ') || 'unknown source'}), which withdrew ${what.join(' and ')}`);
        break;
      }
      case 'changes_what_runs':
        parts.push(`it ${r.hints.map((h) => `changes ${visible(h.fragment)}${h.detail ? ` (${visible(h.detail)})` : ''}`).join('; ')}`);
        break;
      case 'narrow_grants':
        parts.push(r.anyArguments ? 'no grant for "calls with these risks" covers this call: only this exact call, or the tool with any arguments' : 'no grant covers this call but one for exactly this call, since it changes what runs later');
        break;
      case 'shell_without_person':
        parts.push('shell commands run unasked only while a person is present');
        break;
      case 'hook':
        parts.push(`a hook asked for it (${visible(r.reason)})`);
        break;
    }
  }
  const text = parts.join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}
