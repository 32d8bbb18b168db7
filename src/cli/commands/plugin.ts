import { basename } from 'node:path';
import type { Command } from 'commander';
import { json, table } from '../format.js';
import type { CliContext } from '../context.js';

export function registerPluginCommands(program: Command, ctx: CliContext): void {
  const plugin = program.command('plugin').description('slot plugins installed in $PEPE_HOME/plugins');

  plugin
    .command('install')
    .description('copy a plugin module (.mjs, .js, .cjs, .ts) into the plugins folder, after checking it loads')
    .argument('<path>')
    .action(async (path: string) => {
      const pepe = await ctx.pepe();
      const info = await pepe.pluginInstall(path);
      ctx.out(`installed ${info.name} (claims ${info.slot}) as ${basename(info.file)}; pin it with: pepe slot set ${info.slot} ${info.name}`);
    });

  plugin
    .command('list')
    .description('installed plugins and the slot each claims')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const pepe = await ctx.pepe();
      const plugins = await pepe.pluginList();
      if (opts.json) return ctx.out(json(plugins.map((p) => ({ ...p, file: p.source === 'file' ? basename(p.file) : p.file }))));
      if (!plugins.length) return ctx.out(`no plugins installed in ${pepe.paths.plugins}`);
      ctx.out(table(['NAME', 'SLOT', 'FILE', 'STATUS'], plugins.map((p) => [p.name, p.slot, basename(p.file), p.error ? `error: ${p.error}` : 'ok'])));
    });

  plugin
    .command('remove')
    .description('delete an installed plugin (by name, or by file name)')
    .argument('<name>')
    .action(async (name: string) => {
      const pepe = await ctx.pepe();
      const removed = await pepe.pluginRemove(name);
      ctx.out(`removed ${removed.name ?? name} (${basename(removed.file)})`);
      const stale = (await pepe.slotList()).filter((s) => s.configured === removed.name);
      for (const s of stale) ctx.out(`note: slot ${s.slot} still names ${removed.name}; it now uses the default instead (pepe slot clear ${s.slot})`);
    });
}
