import { hasOption, onlyVersionOrHelp, operands, options, type Rule } from './command-args.js';
import { PIP, packageManager } from './package-rules.js';

/**
 * Shells and interpreters: code given inline (`sh -c`, `python -c`, `node -e`) is inline_eval,
 * code read from a pipe is pipe_to_shell, and a script file is an unknown command, because the
 * barrier cannot see what it does.
 */

export const SHELLS = ['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'rbash'];

/** `sh -c CODE` runs CODE; `sh` with no script reads its program from stdin. */
export const shell: Rule = (cmd, ctx) => {
  const args = cmd.args;
  if (onlyVersionOrHelp(args)) return;
  const withC = args.findIndex((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a.text) || a.text === '--command');
  if (withC !== -1) {
    const code = args.slice(withC + 1).find((a) => !a.text.startsWith('-'));
    ctx.hint('inline_eval', cmd.raw, 'runs code given on the command line');
    if (code) {
      if (code.dynamic) ctx.hint('unclear', code.raw, 'the code is built from an expansion');
      else ctx.script(code.text);
    }
    return;
  }
  const script = operands(args, ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'])[0];
  if (!script || script.text === '-' || script.text === '/dev/stdin' || hasOption(args, 's')) {
    if (cmd.pipedFrom) ctx.hint('pipe_to_shell', `| ${cmd.raw}`, 'runs whatever the previous command prints');
    else ctx.hint('unknown_command', cmd.raw, 'starts a shell');
    return;
  }
  ctx.hint('unknown_command', cmd.raw, `runs the script ${script.text}, whose contents the barrier cannot see`);
};

/** Interpreters: which options take code inline. */
const INTERPRETERS: Record<string, { short: string; long: string[] }> = {
  python: { short: 'c', long: [] },
  pypy: { short: 'c', long: [] },
  node: { short: 'ep', long: ['--eval', '--print'] },
  nodejs: { short: 'ep', long: ['--eval', '--print'] },
  bun: { short: 'e', long: ['--eval', '--print'] },
  perl: { short: 'eE', long: [] },
  ruby: { short: 'e', long: [] },
  php: { short: 'rR', long: ['--run'] },
  lua: { short: 'e', long: [] },
  luajit: { short: 'e', long: [] },
  Rscript: { short: 'e', long: [] },
  osascript: { short: 'e', long: [] },
  pwsh: { short: 'cC', long: ['-Command', '-c', '-EncodedCommand', '-e', '-ec'] },
  powershell: { short: 'cC', long: ['-Command', '-c', '-EncodedCommand', '-e', '-ec'] },
  tclsh: { short: '', long: [] },
  julia: { short: 'eE', long: ['--eval', '--print'] },
  deno: { short: '', long: [] },
  java: { short: '', long: [] },
};

export function interpreterKey(name: string): string | null {
  if (/^python[0-9.]*$/.test(name)) return 'python';
  if (/^pypy[0-9.]*$/.test(name)) return 'pypy';
  if (/^(perl|ruby|php|lua)[0-9.]*$/.test(name)) return name.replace(/[0-9.]+$/, '');
  return Object.prototype.hasOwnProperty.call(INTERPRETERS, name) ? name : null;
}

export const interpreter: Rule = (cmd, ctx) => {
  const key = interpreterKey(cmd.name)!;
  const spec = INTERPRETERS[key]!;
  const args = cmd.args;
  if (onlyVersionOrHelp(args) || (['node', 'nodejs', 'bun', 'deno'].includes(key) && args.length === 1 && args[0]!.text === '-v')) return;
  const evalOpt = options(args).some((o) =>
    spec.long.some((l) => o === l || o.startsWith(l + '=')) || (!o.startsWith('--') && spec.short !== '' && [...o.slice(1)].some((ch) => spec.short.includes(ch))),
  );
  if (evalOpt || (key === 'deno' && args[0]?.text === 'eval')) {
    ctx.hint('inline_eval', cmd.raw, 'runs code given on the command line');
    if (key === 'perl' && hasOption(args, 'i')) ctx.hint('write', cmd.raw, 'edits files in place');
    return;
  }
  if (key === 'python' || key === 'pypy') {
    const m = args.findIndex((a) => a.text === '-m');
    const mod = m === -1 ? undefined : args[m + 1]?.text;
    if (mod === 'pip') return packageManager(PIP)({ ...cmd, name: 'pip', args: args.slice(m + 2) }, ctx);
    if (mod === 'http.server' || mod === 'SimpleHTTPServer') return ctx.hint('network', cmd.raw, 'serves files over the network');
  }
  const script = operands(args)[0];
  if (!script || script.text === '-' || script.text === '/dev/stdin') {
    if (cmd.pipedFrom) ctx.hint('pipe_to_shell', `| ${cmd.raw}`, 'runs whatever the previous command prints');
    else ctx.hint('unknown_command', cmd.raw, `starts ${cmd.name}`);
    return;
  }
  ctx.hint('unknown_command', cmd.raw, `runs ${script.text}, whose effects the barrier cannot see`);
};
