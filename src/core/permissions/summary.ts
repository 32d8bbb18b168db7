import type { AskReason } from './approval.js';
import { RISK_LABELS, type RiskHint } from './risk.js';
import { preview, shellQuote } from './display.js';

/**
 * The words a person reads in an approval prompt (spec 5.2): what will happen, and why they are
 * being asked. The exact arguments travel next to this on the request; this is the readable part.
 */

const MAX_PREVIEW = 400;

/** `cwd` is the directory the call will run in, as the caller resolved it (a relative `cwd` argument is not shown). */
export function summarizeCall(agent: string, tool: string, args: unknown, cwd: string): string {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  switch (tool) {
    case 'bash':
      if (str(a.command) !== undefined) return `Run a shell command in ${cwd}:\n  ${indent(a.command as string)}`;
      break;
    case 'run_script': {
      const argv = (a.argv ?? a.args ?? []) as unknown;
      if (str(a.program) !== undefined && Array.isArray(argv)) {
        return `Run a program in ${cwd}:\n  ${[a.program as string, ...argv.map(String)].map(shellQuote).join(' ')}`;
      }
      break;
    }
    case 'write_file':
      if (str(a.path) !== undefined) {
        const size = str(a.content) !== undefined ? ` (${(a.content as string).length} characters)` : '';
        return `Write the file ${a.path as string}${size}, relative to ${cwd}`;
      }
      break;
    case 'switch_agent':
      if (str(a.target) !== undefined) return `Hand the conversation over to ${a.target as string} from the next message`;
      break;
    case 'set_route':
      if (str(a.to) !== undefined) {
        const verb = a.action === 'deny' ? 'Remove' : 'Allow';
        return `${verb} the route ${str(a.from) ?? agent} → ${a.to as string} (writes config.json)`;
      }
      break;
  }
  return `Call ${tool} with ${preview(args, MAX_PREVIEW)}`;
}

export function describeReasons(tool: string, why: AskReason[], hints: RiskHint[]): string {
  const parts: string[] = [];
  for (const r of why) {
    switch (r.kind) {
      case 'gated_tool':
        parts.push(r.known ? `${tool} always asks first` : `${tool} is a plugin or unknown tool, so it always asks first`);
        break;
      case 'risk_hints':
        parts.push(`the command ${hints.map((h) => `${RISK_LABELS[h.kind]} (${h.fragment})`).join('; ')}`);
        break;
      case 'outside_content': {
        const what = r.withdrew.map((w) => ({ auto_approve: 'its pre-approval (auto_approve)', session_grant: 'the "any arguments" grant for this session', risk_free_shell: 'running harmless commands unasked' })[w]);
        parts.push(`outside content entered this turn (${r.sources.join(', ') || 'unknown source'}), which withdrew ${what.join(' and ')}`);
        break;
      }
      case 'shell_without_person':
        parts.push('shell commands run unasked only while a person is present');
        break;
    }
  }
  const text = parts.join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

function indent(text: string): string {
  return text.replace(/\n/g, '\n  ');
}


