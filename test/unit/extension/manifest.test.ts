import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * package.json's contributions against the code and the files they name: every contributed command
 * is registered, every keybinding and walkthrough step runs a real command, every file named
 * exists, and the Marketplace fields vsce needs are there. (The commands' behaviour is covered by
 * the integration and e2e suites.)
 */
const root = join(import.meta.dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const source = (file: string) => readFileSync(join(root, file), 'utf8');
const registered = new Set([
  ...[...source('src/extension/commands/register-commands.ts').matchAll(/^\s+'(pepe\.[\w.]+)',$/gm)].map((m) => m[1]),
  ...[...source('src/extension/activate.ts').matchAll(/registerCommand\('(pepe\.[\w.]+)'/g)].map((m) => m[1]),
]);
// The MCP view's commands (and the workspace items' review) are registered with the view itself (they need no core until run).
const direct = new Set(['src/extension/mcp/register.ts', 'src/extension/views/workspace-items.ts', 'src/extension/views/grants-tree.ts', 'src/extension/tasks/register.ts'].flatMap((f) => [...source(f).matchAll(/registerCommand\(\s*'(pepe\.[\w.]+)'/g)].map((m) => m[1])));
const contributed = new Set<string>(pkg.contributes.commands.map((c: { command: string }) => c.command));

describe('package.json contributions', () => {
  it('every contributed command is registered, and every lazy command has a handler', () => {
    for (const id of contributed) assert.ok(registered.has(id) || direct.has(id), `${id} is contributed but never registered`);
    const handlers = source('src/extension/commands/handlers.ts');
    for (const id of registered) if (id !== 'pepe.log.show' && id !== 'pepe.refresh') assert.ok(handlers.includes(`'${id}':`), `${id} has no handler`);
  });

  it('keybindings: open the chat, a new session, stop, each on a contributed command', () => {
    const bound = pkg.contributes.keybindings.map((k: { command: string }) => k.command);
    assert.deepEqual(bound, ['pepe.chat.open', 'pepe.chat.newSession', 'pepe.chat.stop']);
    for (const id of bound) assert.ok(contributed.has(id));
  });

  it('the walkthrough: add a model → add an agent → open the chat → approve → (optional) a slot plugin, with existing media', () => {
    const [walk] = pkg.contributes.walkthroughs;
    assert.deepEqual(walk.steps.map((s: { id: string }) => s.id), ['addModel', 'addAgent', 'openChat', 'approve', 'slotPlugin']);
    for (const step of walk.steps) {
      assert.ok(existsSync(join(root, step.media.markdown)), `${step.media.markdown} is missing`);
      for (const [, id] of step.description.matchAll(/\(command:(pepe\.[\w.]+)/g)) assert.ok(contributed.has(id), `${step.id} links to unknown ${id}`);
      for (const event of step.completionEvents) if (event.startsWith('onCommand:')) assert.ok(contributed.has(event.slice('onCommand:'.length)), event);
    }
  });

  it('views: Agents first with Add Model / Add Agent in its welcome; Slots collapsed', () => {
    const views = pkg.contributes.views.pepe.map((v: { id: string }) => v.id);
    assert.deepEqual(views, ['pepe.agents', 'pepe.routes', 'pepe.slots', 'pepe.mcp', 'pepe.tasks', 'pepe.grants']);
    assert.equal(pkg.contributes.views.pepe[2].visibility, 'collapsed');
    const welcome = pkg.contributes.viewsWelcome.find((w: { view: string }) => w.view === 'pepe.agents').contents;
    assert.match(welcome, /\[Add Model\]\(command:pepe\.model\.add\)/);
    assert.match(welcome, /\[Add Agent\]\(command:pepe\.agent\.add\)/);
  });

  it('Marketplace fields: icon (a 128×128 PNG), repository, no "Other" category, no spec numbers in user text', () => {
    const png = readFileSync(join(root, pkg.icon));
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    assert.equal(png.readUInt32BE(16), 128);
    assert.equal(png.readUInt32BE(20), 128);
    assert.ok(existsSync(join(root, pkg.contributes.viewsContainers.activitybar[0].icon)));
    assert.ok(pkg.repository?.url && pkg.bugs?.url && pkg.homepage && pkg.keywords?.length);
    assert.ok(!pkg.categories.includes('Other'));
    assert.doesNotMatch(JSON.stringify(pkg.contributes), /\bspec [0-9]/i);
    for (const file of ['README.marketplace.md', 'CHANGELOG.md']) assert.doesNotMatch(source(file), /\bspec [0-9]/i, file);
  });

  it('.vscodeignore keeps source maps and developer docs out; the CLI bundles ship (background tasks run in a CLI process)', () => {
    const ignore = source('.vscodeignore').split('\n').filter((l) => l && !l.startsWith('#'));
    assert.equal(ignore[0], '**', 'an allow-list');
    assert.ok(!ignore.some((l) => /\.map|docs/.test(l) && l.startsWith('!')), ignore.join('\n'));
    for (const bundle of ['cli.js', 'cli-core.js', 'cli-main.js']) assert.ok(ignore.includes(`!dist/${bundle}`), `dist/${bundle} is left out: a background task could not start`);
    // A folder-wide pattern (`!dist/cli-vendor/**`) let the vendor bundles' maps in (2.3 MB): every
    // allow pattern is matched against the maps a build writes.
    const glob = (pattern: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '.*')}$`);
    const allows = ignore.filter((l) => l.startsWith('!')).map((l) => glob(l.slice(1)));
    const maps = ['dist/extension.js.map', 'dist/cli-core.js.map', 'dist/cli-vendor/yaml.js.map', 'dist/cli-vendor/ai-sdk.js.map', 'dist/webview.js.map'];
    for (const map of maps) assert.ok(!allows.some((re) => re.test(map)), `${map} would ship`);
    assert.ok(allows.some((re) => re.test('dist/cli-vendor/yaml.js')), 'the lazily loaded CLI vendor bundles ship');
  });
});
