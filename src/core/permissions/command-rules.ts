import { hasOption, onlyVersionOrHelp, operands, texts, wrapper, type CommandView, type Rule, type RuleContext } from './command-args.js';
import { git } from './git-rule.js';
import { interpreter, interpreterKey, shell, SHELLS } from './interpreter-rules.js';
import { walkOptions, type OptionTable } from './option-tables.js';
import { PACKAGE_RULES } from './package-rules.js';
import { CURL, FIND, RSYNC, SCP, SED, SFTP, SORT, SSH, SSH_CONFIG_KEYS, WGET } from './program-options.js';
import type { RiskKind } from './risk-kinds.js';

/**
 * What each known program may do, judged from its arguments (spec 5.1). A program that is in
 * neither HARMLESS_COMMANDS nor COMMAND_RULES is flagged `unknown_command`: the hints are a
 * deny-list by name, and an allow-list underneath, so a program the barrier has never heard
 * of (`make`, `./deploy.sh`, `kill`) is asked about rather than waved through.
 */


/** Programs that only read or print, whatever their arguments. */
export const HARMLESS_COMMANDS: ReadonlySet<string> = new Set([
  ':', '[', '[[', 'test', 'true', 'false', 'echo', 'printf', 'pwd', 'cd', 'pushd', 'popd', 'dirs',
  'ls', 'dir', 'vdir', 'cat', 'tac', 'head', 'tail', 'less', 'more', 'wc', 'grep', 'egrep', 'fgrep',
  'zgrep', 'zcat', 'bzcat', 'xzcat', 'ag', 'stat', 'file', 'du', 'df', 'which', 'whereis', 'type',
  'whoami', 'id', 'groups', 'uname', 'basename', 'dirname', 'realpath', 'readlink', 'cut', 'tr',
  'nl', 'rev', 'column', 'fold', 'fmt', 'paste', 'join', 'comm', 'expand', 'unexpand', 'od',
  'hexdump', 'strings', 'base64', 'base32', 'md5sum', 'sha1sum', 'sha224sum', 'sha256sum',
  'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'shasum', 'cmp', 'diff', 'seq', 'sleep',
  'printenv', 'locale', 'tty', 'nproc', 'arch', 'free', 'uptime', 'ps', 'pgrep', 'jq', 'read',
  'exit', 'return', 'wait', 'jobs', 'help', 'man', 'whatis', 'apropos', 'cal', 'expr', 'getconf',
  'lscpu', 'lsblk', 'numfmt', 'unset', 'shopt', 'set', 'umask', 'ulimit', 'history', 'clear',
  'unalias', 'w', 'who', 'tsort', 'factor', 'look', 'yes', 'lsof', 'hash',
]);


export const DANGEROUS_ENV =
  /^(PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|IFS|PROMPT_COMMAND|PS4|SHELLOPTS|BASHOPTS|CDPATH|GLOBIGNORE|HOME|PAGER|MANPAGER|GIT_PAGER|EDITOR|VISUAL|GIT_EDITOR|GIT_SSH|GIT_SSH_COMMAND|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|GIT_CONFIG\w*|GIT_EXEC_PATH|GIT_DIR|GIT_WORK_TREE|NODE_OPTIONS|NODE_PATH|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|LESSOPEN|LESSCLOSE|BROWSER|BASH_FUNC_\S*)$/;

export const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;

function assignments(cmd: CommandView, ctx: RuleContext): void {
  for (const a of cmd.args) {
    const m = ASSIGNMENT.exec(a.text);
    if (m && DANGEROUS_ENV.test(m[1]!)) ctx.hint('environment', a.raw, `sets ${m[1]}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Text tools with a dangerous option or two

/** sed: -i edits files; the `w`/`e` commands and s///w, s///e flags write files or run commands. */
const sed: Rule = (cmd, ctx) => {
  const args = cmd.args;
  // `-i.bak` and `--in-place=.bak` attach a backup suffix to the in-place option.
  const normal = args.map((a) => (/^-i./.test(a.text) || a.text.startsWith('--in-place=') ? { ...a, text: '-i' } : a));
  walkOptions({ ...cmd, args: normal }, SED, ctx);
  const scripts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === '-e' || t === '--expression') scripts.push(args[i + 1]?.text ?? '');
    else if (t.startsWith('--expression=')) scripts.push(t.slice(13));
  }
  if (scripts.length === 0) {
    const first = operands(args, ['-f', '--file', '-l', '--line-length'])[0];
    if (first) scripts.push(first.text);
  }
  for (const s of scripts) {
    const flagsEW = /s(.)(?:\\.|(?!\1)[^\\])*\1(?:\\.|(?!\1)[^\\])*\1([a-zA-Z0-9]*)/g;
    for (const m of s.matchAll(flagsEW)) {
      if (m[2]!.includes('e')) ctx.hint('inline_eval', cmd.raw, 'the s///e flag runs a command');
      if (/[wW]/.test(m[2]!)) ctx.hint('write', cmd.raw, 'the s///w flag writes a file');
    }
    const withoutSubs = s.replace(flagsEW, ' ');
    if (/(^|[;\n{}0-9$\/!,])\s*e(\s|$|;)/.test(withoutSubs)) ctx.hint('inline_eval', cmd.raw, 'the e command runs a command');
    if (/(^|[;\n{}0-9$\/!,])\s*[wW](\s|$)/.test(withoutSubs)) ctx.hint('write', cmd.raw, 'the w command writes a file');
  }
};

/** awk programs can call system(), pipe to commands and print into files. */
const awk: Rule = (cmd, ctx) => {
  const args = cmd.args;
  if (texts(args).some((t) => t === 'inplace' || t === '-i' || t.startsWith('--include'))) ctx.hint('write', cmd.raw, 'may edit files in place or load code');
  if (hasOption(args, 'f', ['--file', '--exec', '--source'])) {
    ctx.hint('unknown_command', cmd.raw, 'the awk program is read from a file');
    return;
  }
  const program = operands(args, ['-F', '-v', '--field-separator', '--assign'])[0]?.text ?? '';
  if (/\bsystem\s*\(/.test(program) || /(^|[^|])\|(?!\|)/.test(program)) ctx.hint('inline_eval', cmd.raw, 'the awk program runs commands');
  if (/\bprintf?\b[^;}\n]*>/.test(program)) ctx.hint('write', cmd.raw, 'the awk program writes to a file');
};

/** find: -delete deletes; -exec/-ok run a command per match; -fprint* write files. */
const find: Rule = (cmd, ctx) => {
  const args = cmd.args;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (w.dynamic || w.globStart) ctx.hint('code', cmd.raw, `"${w.raw}" may expand to a find action that runs a program`);
    else if (!t.startsWith('-') || ['!', '(', ')', ','].includes(t)) continue;
    else if (t === '-delete') ctx.hint('delete', cmd.raw);
    else if (['-fprint', '-fprint0', '-fprintf', '-fls'].includes(t)) {
      ctx.hint('write', cmd.raw, `${t} writes a file`);
      i += t === '-fprintf' ? 2 : 1;
    } else if (!['-exec', '-execdir', '-ok', '-okdir'].includes(t)) {
      const known = Object.prototype.hasOwnProperty.call(FIND, t) || /^-newer[aBcmt][aBcmt]$/.test(t) || /^-O\d$/.test(t);
      if (!known) ctx.hint('code', cmd.raw, `${t} is not a find option, test or action the barrier knows; one it cannot classify may run a program`);
      else if (FIND[t] === 'v' || t.startsWith('-newer')) i++;
    } else {
      let j = i + 1;
      while (j < args.length && args[j]!.text !== ';' && args[j]!.text !== '+') j++;
      const inner = args.slice(i + 1, j);
      if (inner.length > 0) ctx.inner(inner, inner.map((w) => w.raw).join(' '));
      i = j;
    }
  }
};

/** fd: -x/-X run a command per match. */
const fd: Rule = (cmd, ctx) => {
  const args = cmd.args;
  const at = args.findIndex((a) => ['-x', '--exec', '-X', '--exec-batch'].includes(a.text));
  if (at === -1) return;
  const inner = args.slice(at + 1);
  if (inner.length > 0) ctx.inner(inner, inner.map((w) => w.raw).join(' '));
};

const tar: Rule = (cmd, ctx) => {
  const ts = texts(cmd.args);
  if (ts.some((t) => /to-command|checkpoint-action|use-compress-program|^-I|^--info-script|^--new-volume-script|^-F$/.test(t))) {
    ctx.hint('inline_eval', cmd.raw, 'tar can run a command');
  }
  // The mode is the first letters of the first argument (`tar tzf`, `tar -tf`, `tar --list`).
  const first = ts[0] ?? '';
  const letters = first.startsWith('--') ? '' : first.replace(/^-/, '');
  const listOnly = ts.includes('--list') || ts.includes('-t') || (letters.includes('t') && !/[xcruA]/.test(letters));
  const changes = /[xcruA]/.test(letters) || ts.some((t) => ['--extract', '--get', '--create', '--append', '--update', '--delete', '--concatenate'].includes(t) || /^-[A-Za-z]*[xcruA]/.test(t));
  if (!listOnly || changes) ctx.hint('write', cmd.raw, 'creates or extracts files');
};

const compressor: Rule = (cmd, ctx) => {
  if (onlyVersionOrHelp(cmd.args)) return;
  if (hasOption(cmd.args, 'clt', ['--stdout', '--to-stdout', '--list', '--test'])) return;
  ctx.hint('write', cmd.raw, 'replaces files with their (de)compressed form');
};

const unzip: Rule = (cmd, ctx) => {
  if (hasOption(cmd.args, 'lvtZp')) return;
  ctx.hint('write', cmd.raw, 'extracts files');
};

/** A program that writes only through one option (sort -o, tree -o, iconv -o, date -s…). */
function writesWith(letters: string, longs: string[], detail: string): Rule {
  return (cmd, ctx) => {
    if (hasOption(cmd.args, letters, longs)) ctx.hint('write', cmd.raw, detail);
  };
}

/** uniq IN OUT and xxd IN OUT write their second operand. */
function writesSecondOperand(withValue: string[]): Rule {
  return (cmd, ctx) => {
    if (operands(cmd.args, withValue).length > 1) ctx.hint('write', cmd.raw, 'writes its output to a file');
    if (cmd.name === 'xxd' && hasOption(cmd.args, 'r')) ctx.hint('write', cmd.raw, 'xxd -r writes binary output');
  };
}

const rsync: Rule = (cmd, ctx) => {
  walkOptions(cmd, RSYNC, ctx);
  const ops = operands(cmd.args, ['-e', '--rsh', '--rsync-path']);
  if (ops.some((o) => /^[^/]*:/.test(o.text) || o.text.startsWith('rsync://')) || hasOption(cmd.args, 'e', ['--rsh'])) ctx.hint('network', cmd.raw);
  ctx.hint('write', cmd.raw, 'copies files');
  if (texts(cmd.args).some((t) => t.startsWith('--delete') || t === '--remove-source-files')) ctx.hint('delete', cmd.raw);
};

const curl: Rule = (cmd, ctx) => {
  ctx.hint('network', cmd.raw);
  walkOptions(cmd, CURL, ctx);
};

const wget: Rule = (cmd, ctx) => {
  ctx.hint('network', cmd.raw);
  walkOptions(cmd, WGET, ctx, { singleDashLong: true });
  const ts = texts(cmd.args);
  const toStdout = ts.some((t, i) => ((t === '-O' || t === '--output-document') && ts[i + 1] === '-') || /^-[A-Za-z]*O-$/.test(t) || t === '--output-document=-');
  if (!toStdout) ctx.hint('write', cmd.raw, 'saves a download to a file');
};

/**
 * ssh, scp, sftp: the network, plus what their options do. `-o KEY=VALUE` is judged by its
 * keyword: ProxyCommand, LocalCommand, Include, Match… run a program or load more configuration.
 */
function sshFamily(table: OptionTable, extra: RiskKind[] = []): Rule {
  return (cmd, ctx) => {
    ctx.hint('network', cmd.raw);
    for (const k of extra) ctx.hint(k, cmd.raw, `${cmd.name} copies files`);
    const sshOption = (option: string, value: { text: string; raw: string; dynamic: boolean }) => {
      if (option !== '-o') return;
      const key = value.dynamic ? '' : (/^\s*([A-Za-z0-9]+)/.exec(value.text)?.[1] ?? '').toLowerCase();
      const cls = Object.prototype.hasOwnProperty.call(SSH_CONFIG_KEYS, key) ? SSH_CONFIG_KEYS[key] : 'code';
      if (cls === 'code') ctx.hint('code', cmd.raw, `-o ${value.raw} can make ${cmd.name} run a program or load configuration`);
      else if (cls === 'write') ctx.hint('write', cmd.raw, `-o ${value.raw} writes a file`);
    };
    walkOptions(cmd, table, ctx, { ...(cmd.name === 'ssh' ? { operandsBeforeCommand: 1 } : {}), onValue: sshOption });
    // sftp reads its commands from a pipe when one feeds it; `!command` runs a local command.
    if (cmd.name === 'sftp' && cmd.pipedFrom) ctx.hint('code', cmd.raw, 'sftp reads commands from the pipe, and !command runs a local command');
  };
}

const privilege: Rule = (cmd, ctx) => {
  ctx.hint('privilege', cmd.raw, `runs with another user's rights (${cmd.name})`);
  const withValue: Record<string, string[]> = {
    sudo: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '-R', '--user', '--group', '--prompt', '--chdir'],
    doas: ['-u', '-C'],
    pkexec: ['--user'],
    run0: ['-u', '--user', '-g', '--group', '-D', '--chdir', '--setenv', '--unit', '--description', '--slice', '--nice'],
  };
  if (cmd.name === 'su') {
    const at = cmd.args.findIndex((a) => a.text === '-c' || a.text === '--command');
    if (at !== -1) {
      ctx.hint('inline_eval', cmd.raw);
      const code = cmd.args[at + 1];
      if (code && !code.dynamic) ctx.script(code.text);
    }
    return;
  }
  wrapper({ withValue: withValue[cmd.name] ?? [] })(cmd, ctx);
};

const evalRule: Rule = (cmd, ctx) => {
  ctx.hint('inline_eval', cmd.raw, 'runs its arguments as shell code');
  if (cmd.args.some((a) => a.dynamic)) ctx.hint('unclear', cmd.raw, 'the code is built from an expansion');
  else ctx.script(texts(cmd.args).join(' '));
};

const watch: Rule = (cmd, ctx) => {
  const ops = operands(cmd.args, ['-n', '--interval', '-d', '-q', '--equexit', '-s', '--shell']);
  ctx.hint('inline_eval', cmd.raw, 'runs its arguments through sh -c, repeatedly');
  if (ops.length > 0 && !ops.some((o) => o.dynamic)) ctx.script(texts(ops).join(' '));
};

const envRule: Rule = (cmd, ctx) => {
  const args = cmd.args;
  let i = 0;
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === '-S' || t.startsWith('--split-string')) {
      ctx.hint('inline_eval', cmd.raw, 'env -S splits a string into a command');
      return;
    }
    if (t === '-u' || t === '--unset' || t === '-C' || t === '--chdir') i++;
    else if (t === '--') {
      i++;
      break;
    } else if (!t.startsWith('-')) break;
  }
  for (; i < args.length; i++) {
    const m = ASSIGNMENT.exec(args[i]!.text);
    if (!m) break;
    if (DANGEROUS_ENV.test(m[1]!)) ctx.hint('environment', args[i]!.raw, `sets ${m[1]}`);
  }
  const rest = args.slice(i);
  if (rest.length > 0) ctx.inner(rest, cmd.raw, cmd.pipedFrom);
};

const commandBuiltin: Rule = (cmd, ctx) => {
  if (hasOption(cmd.args, 'vV')) return; // `command -v x` only looks x up
  wrapper({})(cmd, ctx);
};

const fixed =
  (...kinds: RiskKind[]): Rule =>
  (cmd, ctx) => {
    for (const k of kinds) ctx.hint(k, cmd.raw);
  };

const DELETE = fixed('delete');
const WRITE = fixed('write');
const NETWORK = fixed('network');

export const COMMAND_RULES: Readonly<Record<string, Rule>> = {
  // deletes
  rm: DELETE, rmdir: DELETE, unlink: DELETE, shred: DELETE, srm: DELETE, wipe: DELETE, trash: DELETE,
  'trash-put': DELETE, truncate: DELETE, wipefs: DELETE,
  // writes
  mv: WRITE, cp: WRITE, install: WRITE, ln: WRITE, link: WRITE, chmod: WRITE, chown: WRITE, chgrp: WRITE,
  chattr: WRITE, setfacl: WRITE, touch: WRITE, mkdir: WRITE, mkfifo: WRITE, mknod: WRITE, tee: WRITE,
  dd: WRITE, patch: WRITE, split: WRITE, csplit: WRITE, mktemp: WRITE, rename: WRITE, fdisk: WRITE,
  parted: WRITE, mount: WRITE, umount: WRITE, losetup: WRITE, zip: WRITE, '7z': WRITE,
  sed, awk, gawk: awk, mawk: awk, nawk: awk, find, fd, fdfind: fd, tar, unzip,
  gzip: compressor, gunzip: compressor, bzip2: compressor, bunzip2: compressor, xz: compressor,
  unxz: compressor, zstd: compressor, unzstd: compressor, lz4: compressor, compress: compressor, uncompress: compressor,
  sort: (cmd, ctx) => void walkOptions(cmd, SORT, ctx),
  tree: writesWith('o', [], 'writes its output to a file'),
  iconv: writesWith('o', ['--output'], 'writes its output to a file'),
  date: writesWith('s', ['--set'], 'sets the system clock'),
  hostname: (cmd, ctx) => {
    if (operands(cmd.args).length > 0 || hasOption(cmd.args, 'bF', ['--boot', '--file'])) ctx.hint('write', cmd.raw, 'sets the host name');
  },
  uniq: writesSecondOperand(['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars']),
  xxd: writesSecondOperand(['-c', '-g', '-l', '-o', '-s', '-n', '-cols', '-len', '-seek']),
  rg: (cmd, ctx) => {
    if (texts(cmd.args).some((t) => t === '--pre' || t.startsWith('--pre='))) ctx.hint('inline_eval', cmd.raw, '--pre runs a program on each file');
  },
  // network
  curl, wget, rsync, ssh: sshFamily(SSH), scp: sshFamily(SCP, ['write']), sftp: sshFamily(SFTP, ['write']), nc: NETWORK, ncat: NETWORK, netcat: NETWORK,
  socat: NETWORK, telnet: NETWORK, ftp: NETWORK, tftp: NETWORK, lftp: NETWORK, ping: NETWORK, ping6: NETWORK,
  traceroute: NETWORK, dig: NETWORK, nslookup: NETWORK, host: NETWORK, whois: NETWORK, http: NETWORK,
  https: NETWORK, xh: NETWORK, aria2c: NETWORK, nmap: NETWORK, mosh: NETWORK, rclone: NETWORK, aws: NETWORK,
  gcloud: NETWORK, gsutil: NETWORK, az: NETWORK, kubectl: NETWORK, helm: NETWORK, gh: NETWORK, glab: NETWORK,
  'ssh-copy-id': NETWORK,
  git,
  // privilege
  sudo: privilege, doas: privilege, su: privilege, pkexec: privilege, run0: privilege,
  // inline eval and wrappers
  eval: evalRule, watch, trap: fixed('inline_eval'), source: fixed('unknown_command'), '.': fixed('unknown_command'),
  alias: (cmd, ctx) => {
    if (cmd.args.some((a) => a.text.includes('='))) ctx.hint('inline_eval', cmd.raw, 'defines a command');
  },
  env: envRule,
  export: assignments, declare: assignments, typeset: assignments, local: assignments, readonly: assignments,
  xargs: wrapper({ withValue: ['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--max-lines', '--replace'] }),
  nice: wrapper({ withValue: ['-n', '--adjustment'] }),
  nohup: wrapper({}),
  time: wrapper({}),
  timeout: wrapper({ withValue: ['-s', '-k', '--signal', '--kill-after'], leading: 1 }),
  stdbuf: wrapper({ withValue: ['-i', '-o', '-e'] }),
  ionice: wrapper({ withValue: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'] }),
  exec: wrapper({ withValue: ['-a'] }),
  command: commandBuiltin,
  builtin: wrapper({}),
  ...PACKAGE_RULES,
  // shells and interpreters
  ...Object.fromEntries(SHELLS.map((s) => [s, shell])),
};

export function ruleFor(name: string): Rule | undefined {
  if (Object.prototype.hasOwnProperty.call(COMMAND_RULES, name)) return COMMAND_RULES[name];
  if (name.startsWith('mkfs')) return WRITE;
  if (interpreterKey(name)) return interpreter;
  return undefined;
}
