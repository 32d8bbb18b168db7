import assert from 'node:assert/strict';
import { parseChatInput } from '../../../src/core/chat-command.js';
import { expansionOutcome, helpItem, slashCommands } from '../../../src/extension/chat/panel-prompts.js';
import { parseHostMessage } from '../../../src/protocol/messages.js';
import { matchingCommands, slashAt } from '../../../src/webview/slash-commands.js';
import { TempHome } from '../helpers/home.js';
import { FixtureRepo } from '../interop/fixture.js';

/* The chat panel's `/` commands (issue 24): /help, prompt files expanded, completion in the input. */
describe('chat: /help, /name prompts and their completion', () => {
  let home: TempHome;
  let repo: FixtureRepo;
  beforeEach(() => {
    home = new TempHome();
    repo = new FixtureRepo({ '.pepe/prompts/review.md': '---\ndescription: Review a file\n---\nReview $1.', '.pepe/prompts/new.md': 'hidden by /new' });
  });
  afterEach(() => {
    home.cleanup();
    repo.cleanup();
  });

  it('/help is the chat’s own command; it lists the commands, then the prompts, and says what a built-in hides', async () => {
    assert.deepEqual(parseChatInput(' /help '), { kind: 'help' });
    const pepe = await home.pepe({ workspace: repo.dir });
    const item = await helpItem(pepe);
    assert.equal(item.kind, 'notice');
    const text = item.kind === 'notice' ? item.text : '';
    assert.match(text, /\/agent — NAME: hand the conversation[\s\S]*\/new — [\s\S]*\/help — [\s\S]*\/review — Review a file \(\.pepe\/prompts\/review\.md\)/);
    assert.match(text, /\.pepe\/prompts\/new\.md is hidden by the chat command \/new/);
  });

  it('the completions the host sends validate; the input completes `/` only at its start', async () => {
    const pepe = await home.pepe({ workspace: repo.dir });
    const commands = slashCommands(await pepe.promptCatalog());
    assert.ok(parseHostMessage({ type: 'commands', commands }).ok);
    assert.deepEqual(commands.map((c) => `${c.kind}:${c.name}`), ['command:agent', 'command:new', 'command:help', 'prompt:review']);
    assert.equal(slashAt('/re', 3), 're');
    assert.equal(slashAt('/', 1), '');
    assert.equal(slashAt('say /re', 7), null);
    assert.equal(slashAt('/review x', 9), null, 'past the name: arguments are being typed');
    assert.deepEqual(matchingCommands(commands, 're').map((c) => c.name), ['review']);
  });

  it('a prompt is expanded and the conversation names its file; a broken one sends nothing and says why', async () => {
    const pepe = await home.pepe({ workspace: repo.dir });
    const used = expansionOutcome('/review a.ts', await pepe.promptExpand('/review a.ts'));
    assert.equal(used.text, 'Review a.ts.');
    assert.match(used.notice?.kind === 'notice' ? used.notice.text : '', /Using the prompt \/review \(\.pepe\/prompts\/review\.md\)/);
    assert.deepEqual(expansionOutcome('hello', await pepe.promptExpand('hello')), { text: 'hello', notice: null });
    repo.write({ '.pepe/prompts/review.md': '---\ndescription: [broken\n---\nx' });
    const broken = expansionOutcome('/review a.ts', await pepe.promptExpand('/review a.ts'));
    assert.equal(broken.text, null);
    assert.match(broken.notice?.kind === 'notice' ? broken.notice.text : '', /front matter is not valid YAML.*nothing was sent/);
  });
});
