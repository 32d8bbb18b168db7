/**
 * `pepe <command> …` builds only the command it names (commander building every command and
 * option was a tenth of a command's start-up): the program it builds must be the same as the whole
 * program's part for that command, and anything else (help, a mistake) gets the whole program.
 */
import assert from 'node:assert/strict';
import type { Command } from 'commander';
import { buildProgram, commandNamed, type CliContext } from '../../../src/cli/main.js';

const ctx = { pepe: () => Promise.reject(new Error('not in this test')), out: () => undefined } as unknown as CliContext;

/** Every command under `cmd` with its options and arguments, as help lists them. */
function tree(cmd: Command): string {
  return [cmd.helpInformation(), ...cmd.commands.map(tree)].join('\n');
}

describe('the CLI builds the command named on the command line only', () => {
  it('each command built alone is the whole program\'s command, subcommands and options alike', () => {
    const whole = buildProgram(ctx);
    assert.ok(whole.commands.length >= 17);
    for (const command of whole.commands) {
      const alone = buildProgram(ctx, [command.name(), '--help']);
      assert.deepEqual(alone.commands.map((c) => c.name()), [command.name()], `pepe ${command.name()} built other commands`);
      assert.equal(tree(alone.commands[0]!), tree(command), `pepe ${command.name()} differs when built alone`);
      assert.deepEqual(alone.options.map((o) => o.flags), whole.options.map((o) => o.flags));
    }
  });

  it('finds the command past the global options, and builds everything when none is named', () => {
    assert.equal(commandNamed(['slot', 'list']), 'slot');
    assert.equal(commandNamed(['--verbose', '--untrusted', 'run', 'a', 'hi']), 'run');
    assert.equal(commandNamed(['--home=/x', 'chat']), 'chat');
    assert.equal(commandNamed(['--home', '/x', 'mcp', 'list']), 'mcp');
    // --home takes the next word as its value: "slot" is the folder here, "list" no command.
    assert.equal(commandNamed(['--home', 'slot', 'list']), undefined);
    for (const argv of [[], ['--help'], ['help', 'slot'], ['slto', 'list'], ['--', 'slot']]) {
      assert.equal(commandNamed(argv), undefined, argv.join(' '));
      assert.equal(buildProgram(ctx, argv).commands.length, buildProgram(ctx).commands.length);
    }
  });
});
