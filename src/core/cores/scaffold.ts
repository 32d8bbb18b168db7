import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { PEPE_CORE_DTS } from './sdk-dts.js';

const seedManifest = (description: string, extra: { failure: 'soft' | 'hard'; history: string; timeout?: string; capabilities?: string }) => `entrypoint: module:process
description: "${description}"
input_schema: {}
capabilities: ${extra.capabilities ?? '[]'}
timeout_seconds: ${extra.timeout ?? 'null'}
failure_policy: ${extra.failure}
default_placement: pre_current_user
history_policy: ${extra.history}
`;

/** The files of a new core, relative to its folder (spec 7). */
export const SCAFFOLD_FILES: Record<string, string> = {
  'agent/pipelines.yaml': `# The pipelines of this agent core (see docs/agent-cores.md).
# Each entry is a slot id: a folder under agent/<phase>/ with slot.yaml and a module.
# Serial slots run in order; then parallel ones run together (they cannot change the prompt).
schema_version: 1
bootstrap:
  serial: []
input:
  serial:
    # - example_context    # uncomment to run the example slot before base_input
    - base_input
  parallel: []
output:
  serial:
    - base_output
  parallel: []
`,
  'agent/input/base_input/slot.yaml': seedManifest("Appends the raw user text as this turn's user message.", { failure: 'hard', history: 'persist' }),
  'agent/input/base_input/module.ts': `// The seed input slot: the user's text becomes this turn's user message.
// If no input slot adds user text, the turn fails with a clear error.
export function process(ctx: PepeCore.InputContext): void {
  ctx.input.addContext(ctx.input.rawText, { role: 'user' });
}
`,
  'agent/output/base_output/slot.yaml': seedManifest('Sends the model response to the user.', { failure: 'hard', history: 'persist' }),
  'agent/output/base_output/module.ts': `// The seed output slot: delivers the model's answer (and keeps it in the session history).
// If no output slot sends anything, the answer stays only in Pepe's runtime records.
export function process(ctx: PepeCore.OutputContext): void {
  ctx.output.sendText(ctx.output.responseText);
}
`,
  'agent/input/example_context/slot.yaml': `# An example input slot. Enable it by listing "example_context" under input.serial in
# agent/pipelines.yaml. slot.yaml accepts exactly these eight fields.
entrypoint: module:process           # <file stem in this folder>:<exported function>
description: "Adds a short system note about the workspace before the user's message."
input_schema: {}
capabilities: []                     # e.g. [tool.call:read_file, state.session.write, network.fetch]
timeout_seconds: 5                   # the slot is stopped after this long (null: Pepe's default)
failure_policy: soft                 # soft: log and go on; hard: the turn fails with this slot's error
default_placement: pre_current_user  # where its system context goes: pre_current_user | post_current_user | system_prompt
history_policy: transient            # persist | model_hidden | transient (this turn only)
`,
  'agent/input/example_context/module.ts': `import { oneLine } from '../../lib/text';

// Input slots run before the model is called. Serial ones may add context to the prompt.
export function process(ctx: PepeCore.InputContext): void {
  ctx.input.addContext(oneLine(\`The user works in \${ctx.workspace}. Today is \${new Date().toISOString().slice(0, 10)}.\`), {
    role: 'system',
  });

  // The session's recent messages (no capability needed):
  //   const recent = ctx.history.recentMessages(4, { roles: ['user', 'assistant'] });
  // Anything that reaches outside the slot needs a capability in slot.yaml.
  // Tools go through the permission barrier (make process async for this):
  //   ctx.capability.require('tool.call:read_file');
  //   const readme = await ctx.tools.call('read_file', { path: 'README.md' });
  // A child agent with only its base slots and no tools:
  //   const answer = await ctx.agents.run('reviewer', ctx.input.rawText, { tools: 'none' });
}
`,
  'agent/lib/text.ts': `// Shared helpers for slot modules: import them with a relative path such as '../../lib/text'.
export function oneLine(text: string, max = 400): string {
  const flat = text.replace(/\\s+/g, ' ').trim();
  return flat.length > max ? \`\${flat.slice(0, max - 1)}…\` : flat;
}
`,
  'agent/pepe-core.d.ts': PEPE_CORE_DTS,
  'tsconfig.json': `${JSON.stringify(
    {
      compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: true },
      include: ['agent/**/*.ts'],
    },
    null,
    2,
  )}\n`,
};

/**
 * Writes a new core into `dir` (created when missing). Refuses to touch a folder that already has
 * an `agent/` surface, so nothing is overwritten. Returns the files written (absolute paths).
 */
export function scaffoldCore(dir: string): string[] {
  const root = resolve(dir);
  const surface = join(root, 'agent');
  if (existsSync(surface) && readdirSync(surface).length) {
    throw new UsageError(`${surface} already exists; check it with: pepe init --check ${dir}`);
  }
  const written: string[] = [];
  for (const [rel, content] of Object.entries(SCAFFOLD_FILES)) {
    const file = join(root, rel);
    if (existsSync(file)) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    written.push(file);
  }
  mkdirSync(join(surface, 'bootstrap'), { recursive: true });
  return written;
}
