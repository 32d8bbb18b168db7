import assert from 'node:assert/strict';
import { ansiCQuote, displayCommand, hasHiddenCharacters, inertJson, visible } from '../../../src/core/display.js';
import { bareEntries, describeGrant, entryCovers, parseEntry, scopedEntry, widenEntries } from '../../../src/core/permissions/grant-scope.js';

describe('grant entries scoped to risks', () => {
  it('writes the tool with the risks shown, sorted; none for a call without risk', () => {
    assert.equal(scopedEntry('bash', ['write', 'network', 'write']), 'bash:network+write');
    assert.equal(scopedEntry('set_route', []), 'set_route:none');
  });

  it('covers a call only when all its risks were granted', () => {
    assert.equal(entryCovers('bash:network', 'bash', ['network']), true);
    assert.equal(entryCovers('bash:network', 'bash', []), true);
    assert.equal(entryCovers('bash:network', 'bash', ['delete']), false);
    assert.equal(entryCovers('bash:network', 'bash', ['network', 'delete']), false);
    assert.equal(entryCovers('bash:none', 'bash', ['write']), false);
    assert.equal(entryCovers('bash:network', 'run_script', ['network']), false);
  });

  it('an unknown program is covered only by name: "always" for npm test never covers python3 steal.py', () => {
    assert.equal(scopedEntry('bash', ['unknown_command'], ['npm']), 'bash:unknown_command@npm');
    assert.equal(scopedEntry('bash', ['unknown_command', 'write'], ['tee', 'npm', 'npm']), 'bash:unknown_command+write@npm,tee');
    assert.equal(scopedEntry('bash', ['write'], ['tee']), 'bash:write', 'no program list when no unknown program was shown');
    assert.equal(scopedEntry('bash', ['unknown_command'], ['we,ird']), 'bash:unknown_command@?', 'a name that cannot be written matches nothing');
    assert.equal(entryCovers('bash:unknown_command@npm', 'bash', ['unknown_command'], ['npm']), true);
    assert.equal(entryCovers('bash:unknown_command@npm', 'bash', ['unknown_command'], ['python3']), false);
    assert.equal(entryCovers('bash:unknown_command@npm', 'bash', ['unknown_command'], ['npm', 'python3']), false);
    assert.equal(entryCovers('bash:unknown_command@npm', 'bash', ['unknown_command'], []), false);
    assert.equal(entryCovers('bash:unknown_command@?', 'bash', ['unknown_command'], ['?']), false, 'the sentinel matches nothing, not even a program named "?"');
    assert.equal(entryCovers('bash:unknown_command+write@npm', 'bash', ['write'], ['tee']), true, 'calls without an unknown program are judged by their risks');
  });

  it('keeps a bare name (and anything that is not a risk list) meaning every call', () => {
    assert.equal(entryCovers('bash', 'bash', ['delete', 'privilege']), true);
    assert.deepEqual(parseEntry('mcp:tool'), { tool: 'mcp:tool', risks: null, programs: null });
    assert.equal(entryCovers('mcp:tool', 'mcp:tool', ['write']), true);
    assert.equal(entryCovers('*', 'anything', ['delete']), true);
    assert.deepEqual(bareEntries(['bash', 'bash:network', '*', 'write_file']), ['bash', 'write_file']);
    assert.deepEqual(bareEntries('*'), []);
  });
});

describe('grants widen one entry and say what they cover', () => {
  it('merges a scoped entry into the tool\'s existing one, keeping everything else as written', () => {
    assert.deepEqual(widenEntries(['bash:network'], 'bash:write'), ['bash:network+write']);
    assert.deepEqual(widenEntries(['read_file', 'bash:network', 'write_file:write'], 'bash:delete'), ['read_file', 'bash:delete+network', 'write_file:write']);
    assert.deepEqual(widenEntries(['bash:unknown_command@npm'], 'bash:unknown_command@make'), ['bash:unknown_command@make,npm']);
    assert.deepEqual(widenEntries(['bash:network'], 'bash:network'), ['bash:network']);
    assert.deepEqual(widenEntries(['bash:unknown_command'], 'bash:write'), ['bash:unknown_command', 'bash:write'], 'an entry from before program lists is not widened');
    assert.deepEqual(widenEntries(['*'], 'bash:write'), ['*', 'bash:write']);
    assert.deepEqual(widenEntries([], 'bash'), ['bash']);
  });

  it('no scoped entry covers code or environment; nothing but an exact grant covers control_file', () => {
    assert.equal(entryCovers('bash:code+network', 'bash', ['code', 'network']), false);
    assert.equal(entryCovers('bash:environment', 'bash', ['environment']), false);
    assert.equal(entryCovers('bash', 'bash', ['code', 'network']), true, 'any arguments covers code');
    assert.equal(entryCovers('*', 'write_file', ['control_file', 'write']), false);
    assert.equal(entryCovers('write_file', 'write_file', ['control_file', 'write']), false);
  });

  it('describes each entry in one line', () => {
    assert.match(describeGrant('bash:network+write'), /^bash calls whose only risks are: uses the network; or writes/);
    assert.match(describeGrant('bash:network+write'), /runs a program through an option, a hook or a variable is asked/);
    assert.match(describeGrant('bash'), /every call of bash, with any arguments/);
    assert.match(describeGrant('bash:none'), /no risk at all/);
    assert.match(describeGrant('bash:unknown_command@npm'), /running npm/);
    assert.match(describeGrant('bash:code+network'), /code part never applies/);
  });
});

describe('showing model-controlled text', () => {
  it('makes control, bidi and invisible characters visible', () => {
    assert.equal(visible('a\rb\u001b[2Kc\u202ed\u200be\u0085f\u00a0g\u0007'), 'a\\rb\\e[2Kc\\u{202e}d\\u{200b}e\\x85f\\xa0g\\x07');
    assert.equal(visible('tab\tand\nnewline stay'), 'tab\tand\nnewline stay');
    assert.ok(hasHiddenCharacters('x\u2066y'), 'an isolate is hidden');
    assert.ok(!hasHiddenCharacters('plain ascii and café'), 'ordinary text is not');
  });

  it('shows a command with hidden characters $\'…\'-quoted', () => {
    assert.equal(displayCommand('ls -la'), 'ls -la');
    assert.equal(displayCommand("echo 'hi'\r\u001b[1A"), "$'echo \\'hi\\'\\r\\e[1A'");
    assert.equal(ansiCQuote('a\\b'), "$'a\\\\b'");
  });

  it('keeps JSON valid while escaping hidden characters', () => {
    const text = inertJson(JSON.stringify({ c: 'a\u202eb\u0085\u{e0041}' }));
    assert.ok(!hasHiddenCharacters(text), text);
    assert.deepEqual(JSON.parse(text), { c: 'a\u202eb\u0085\u{e0041}' });
  });
});

describe('why a call is asked', () => {
  it('never changes how a tool name is written (the sentence starts with "The tool")', async () => {
    const { describeReasons } = await import('../../../src/core/permissions/summary.js');
    assert.equal(describeReasons('mcp__everything__echo', [{ kind: 'gated_tool', known: false }], []), 'The tool mcp__everything__echo is a plugin or unknown tool, so it always asks first.');
    assert.equal(describeReasons('write_file', [{ kind: 'gated_tool', known: true }], []), 'The tool write_file always asks first.');
  });
});
