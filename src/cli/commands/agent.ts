import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import type { AgentConfig } from '../../core/config/schema.js';
import { isPresetName, PERMISSION_PRESETS, PRESET_NAMES, presetNamed, withPreset } from '../../core/permissions/presets.js';
import { json, table } from '../format.js';
import { parseList, type CliContext } from '../context.js';
import { inert } from './trust.js';
import { stdout } from '../stdio.js';
import { loadCliExtras } from '../core-loader.js';

function parseSlots(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of parseList(value)) {
    const [slot, plugin, ...rest] = pair.split(':');
    if (!slot || !plugin || rest.length) throw new UsageError(`--slots expects slot:plugin pairs, e.g. memory:example_memory (got "${pair}")`);
    out[slot] = plugin;
  }
  return out;
}

/** The core folder as an absolute path, after checking it (without running its modules); a broken core is refused. */
async function checkedCore(dir: string): Promise<string> {
  const { resolve } = await import('node:path');
  const { checkCore, formatProblem } = await loadCliExtras();
  const abs = resolve(dir);
  const problems = checkCore(abs, { loadModules: false });
  if (problems.length) {
    throw new UsageError(`the agent core at ${dir} has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was changed:\n${problems.map((p) => `  ${formatProblem(p, process.cwd())}`).join('\n')}`);
  }
  return abs;
}

export function registerAgentCommands(program: Command, ctx: CliContext): void {
  const agent = program.command('agent').description('agents: models, tools, routes and slot overrides');

  agent
    .command('add')
    .description('create an agent')
    .argument('<name>')
    .option('--model <id>', 'model id (a key of "models", or mock)')
    .option('--tools <list>', 'comma-separated allow-list of tools (default: every built-in tool)', parseList)
    .option('--can-message <list>', 'comma-separated agents it may message (directed routes)', parseList)
    .option('--slots <list>', 'slot overrides, e.g. memory:example_memory,compaction:tail_only_compaction', parseSlots)
    .option('--project <name>', 'project it belongs to')
    .option('--core <dir>', 'attach an agent core (a folder made with pepe init); it is checked first')
    .option('--preset <name>', `what it may do without asking: ${PRESET_NAMES.map((n) => `${n} (${PERMISSION_PRESETS[n].label.toLowerCase()})`).join(', ')}; see pepe grants list afterwards`)
    .action(async (name: string, opts: { model?: string; tools?: string[]; canMessage?: string[]; slots?: Record<string, string>; project?: string; core?: string; preset?: string }) => {
      if (opts.preset !== undefined && !isPresetName(opts.preset)) throw new UsageError(`--preset ${opts.preset}: the presets are ${PRESET_NAMES.join(', ')}`);
      const pepe = await ctx.pepe();
      let config: AgentConfig = {};
      if (opts.core) config.core = await checkedCore(opts.core);
      if (opts.model) config.model = opts.model;
      if (opts.tools) config.tools = opts.tools;
      if (opts.canMessage) config.can_message = opts.canMessage;
      if (opts.slots) config.slots = opts.slots as AgentConfig['slots'];
      if (opts.project) config.project = opts.project;
      const preset = opts.preset !== undefined ? presetNamed(opts.preset) : null;
      if (preset) config = withPreset(config, preset);
      await pepe.agentAdd(name, config);
      ctx.out(`added agent ${name}`);
      if (preset) ctx.out(`permissions: ${preset.label}. ${preset.words}`);
    });

  agent
    .command('list')
    .description('every agent with its model, project, routes and where it is defined (config.json or an agent file)')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const pepe = await ctx.pepe();
      const { AGENT_STATUS_WORDS } = await loadCliExtras();
      const agents = pepe.agentList();
      const problems = pepe.interopProblems();
      if (opts.json) return ctx.out(json({ agents, problems }));
      if (!agents.length && !problems.length) return ctx.out('no agents yet: pepe agent add NAME --model mock (or a file .pepe/agents/NAME.md)');
      if (agents.length) {
        ctx.out(table(['AGENT', 'MODEL', 'PROJECT', 'CAN MESSAGE', 'FROM', 'STATUS'], agents.map((a) => [inert(a.name), a.model, a.project, a.canMessage.join(', ') || null, inert(a.source), AGENT_STATUS_WORDS[a.status]])));
      }
      for (const p of problems) ctx.out(inert(p));
      if (agents.some((a) => a.status === 'awaiting' || a.status === 'changed')) ctx.out('review the files awaiting acceptance, then: pepe trust accept NAME');
    });

  agent
    .command('export')
    .description('write an agent as an agent file (front matter and its system prompt as the body)')
    .argument('<name>')
    .option('-o, --output <file>', 'write it to this file instead of printing it (an existing file is not overwritten)')
    .action(async (name: string, opts: { output?: string }) => {
      const pepe = await ctx.pepe();
      const text = pepe.agentExport(name);
      if (!opts.output) return void stdout(text);
      const { writeFile } = await import('node:fs/promises');
      try {
        await writeFile(opts.output, text, { flag: 'wx' });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`${opts.output} exists; nothing was written (remove it or choose another file)`);
        throw e;
      }
      ctx.out(`wrote ${opts.output}`);
    });

  agent
    .command('route')
    .description('allow FROM to message TO (directed: nothing opens the other way)')
    .argument('<from>')
    .argument('<to>')
    .option('--remove', 'revoke the route instead')
    .action(async (from: string, to: string, opts: { remove?: boolean }) => {
      const pepe = await ctx.pepe();
      if (opts.remove) {
        const removed = await pepe.routeRemove(from, to);
        ctx.out(removed ? `removed route ${from} → ${to}` : `there was no route ${from} → ${to}`);
      } else {
        const added = await pepe.routeAdd(from, to);
        ctx.out(added ? `${from} → ${to}` : `${from} → ${to} already existed`);
        const graph = pepe.routeGraph();
        if (!graph.agents.find((a) => a.name === from)?.canSend) ctx.out(`note: ${from} lacks the send_to_agent tool, so it cannot use the route yet`);
      }
    });

  agent
    .command('remove')
    .description('delete an agent (its routes from other agents go too)')
    .argument('<name>')
    .action(async (name: string) => {
      const pepe = await ctx.pepe();
      const { routesRemoved } = await pepe.agentRemove(name);
      ctx.out(`removed agent ${name}${routesRemoved.length ? `; routes removed: ${routesRemoved.join(', ')}` : ''}`);
    });
}
