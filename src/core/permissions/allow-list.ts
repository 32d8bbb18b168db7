import type { ShellWord } from './shell-syntax.js';

/**
 * The allow-list (spec 5.1): the only programs a shell call may run without a prompt, each with
 * the only options it may be given, spelled exactly (no abbreviations: `--in` is not `--in-place`
 * here, though GNU getopt would accept it). Short options that take no value may be clustered
 * (`-la`). Every word must be plain (checked by the caller). Anything else is asked.
 */

interface ProgramSpec {
  /** Short options without a value (clusterable). */
  flags?: string;
  /** Long options without a value; `--x=v` is accepted only when `--x` is also in `values`. */
  long?: readonly string[];
  /** Options that take a value: the next word, or attached (`-n5`, `--lines=5`). */
  values?: readonly string[];
  /** `-5` means `-n 5` (head, tail, git log). */
  numeric?: boolean;
  /** At most this many operands (`uniq IN OUT` writes OUT). */
  maxOperands?: number;
  /** Each operand must pass this (`date +FORMAT`, never `date MMDDhhmm`). */
  operand?: (text: string) => boolean;
  /** Operands are allowed only when one of these options is present (`git branch --list PATTERN`). */
  operandsOnlyWith?: readonly string[];
}

const CHECKSUM: ProgramSpec = { flags: 'bctwz', long: ['--binary', '--check', '--tag', '--text', '--quiet', '--status', '--strict', '--warn', '--zero'] };
const GREP: ProgramSpec = {
  flags: 'EFGPiyvwxcLloqsbHhnTZzraRIU',
  long: ['--ignore-case', '--invert-match', '--word-regexp', '--line-regexp', '--count', '--files-with-matches', '--files-without-match', '--only-matching', '--quiet', '--silent', '--no-messages', '--byte-offset', '--with-filename', '--no-filename', '--line-number', '--recursive', '--dereference-recursive', '--text', '--null', '--null-data', '--color', '--colour', '--extended-regexp', '--fixed-strings', '--basic-regexp', '--perl-regexp', '--initial-tab'],
  values: ['-e', '-f', '-m', '-A', '-B', '-C', '--regexp', '--file', '--max-count', '--after-context', '--before-context', '--context', '--include', '--exclude', '--exclude-dir', '--color', '--colour', '--label', '--binary-files'],
};
const VERSION_ONLY: ProgramSpec = { long: ['--version'], maxOperands: 0 };

export const ALLOWED_PROGRAMS: Readonly<Record<string, ProgramSpec>> = {
  ls: {
    flags: '1aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ',
    long: ['--all', '--almost-all', '--human-readable', '--recursive', '--reverse', '--classify', '--directory', '--inode', '--size', '--numeric-uid-gid', '--group-directories-first', '--no-group', '--literal', '--escape', '--quote-name', '--full-time', '--dereference', '--si', '--author', '--color'],
    values: ['-I', '-w', '--ignore', '--width', '--color', '--sort', '--time-style', '--format', '--indicator-style', '--block-size', '--time', '--hide', '--quoting-style'],
  },
  cat: { flags: 'AbeEnstTuv', long: ['--number', '--number-nonblank', '--show-all', '--show-ends', '--show-tabs', '--squeeze-blank', '--show-nonprinting'] },
  head: { flags: 'qvz', long: ['--quiet', '--silent', '--verbose', '--zero-terminated'], values: ['-n', '-c', '--lines', '--bytes'], numeric: true },
  tail: { flags: 'qvz', long: ['--quiet', '--silent', '--verbose', '--zero-terminated'], values: ['-n', '-c', '--lines', '--bytes'], numeric: true },
  wc: { flags: 'clmwL', long: ['--bytes', '--chars', '--lines', '--words', '--max-line-length'] },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    flags: 'iSswvxclnNHIoqFPuLaU0',
    long: ['--files', '--hidden', '--no-ignore', '--follow', '--count', '--json', '--fixed-strings', '--ignore-case', '--smart-case', '--case-sensitive', '--line-number', '--no-line-number', '--no-heading', '--heading', '--with-filename', '--no-filename', '--vimgrep', '--word-regexp', '--files-with-matches', '--files-without-match', '--only-matching', '--multiline', '--type-list', '--invert-match', '--quiet', '--sort-files', '--stats'],
    values: ['-g', '-t', '-T', '-e', '-A', '-B', '-C', '-m', '-M', '-j', '--glob', '--iglob', '--type', '--type-not', '--regexp', '--after-context', '--before-context', '--context', '--max-count', '--max-columns', '--max-depth', '--color', '--sort', '--sortr', '--threads'],
  },
  find: {}, // judged by findAllowed below
  pwd: { flags: 'LP', maxOperands: 0 },
  echo: { flags: 'neE' },
  printf: {},
  true: {},
  false: {},
  cd: { flags: 'LP', maxOperands: 1 },
  basename: { flags: 'asz', long: ['--multiple', '--zero'], values: ['-s', '--suffix'] },
  dirname: { flags: 'z', long: ['--zero'] },
  realpath: { flags: 'eLmPqsz', long: ['--canonicalize-existing', '--canonicalize-missing', '--logical', '--physical', '--quiet', '--strip', '--no-symlinks', '--zero'], values: ['--relative-to', '--relative-base'] },
  readlink: { flags: 'femnqsvz', long: ['--canonicalize', '--canonicalize-existing', '--canonicalize-missing', '--no-newline', '--quiet', '--silent', '--verbose', '--zero'] },
  whoami: { maxOperands: 0 },
  id: { flags: 'gGnruz', long: ['--group', '--groups', '--name', '--real', '--user', '--zero'] },
  groups: {},
  uname: { flags: 'asnrvmpio', long: ['--all', '--kernel-name', '--nodename', '--kernel-release', '--kernel-version', '--machine', '--processor', '--hardware-platform', '--operating-system'], maxOperands: 0 },
  // Never `date MMDDhhmm` or `date -s`: those set the clock.
  date: { flags: 'uR', long: ['--utc', '--universal', '--rfc-email', '--iso-8601'], values: ['-d', '--date', '-r', '--reference', '--iso-8601'], operand: (t) => t.startsWith('+') },
  which: { flags: 'a' },
  type: { flags: 'aftpP' },
  du: { flags: 'achHklLmsSxb0', long: ['--all', '--apparent-size', '--human-readable', '--summarize', '--total', '--si', '--one-file-system', '--dereference', '--count-links', '--bytes', '--null'], values: ['-d', '--max-depth', '--exclude', '-B', '--block-size', '-t', '--threshold'] },
  df: { flags: 'ahHiklPT', long: ['--all', '--human-readable', '--si', '--inodes', '--local', '--portability', '--print-type', '--total'], values: ['-t', '-x', '--type', '--exclude-type', '--output', '-B', '--block-size'] },
  // Never -o/--output, -T or --compress-program.
  sort: { flags: 'bdfgiMhnRrVsuzcC', long: ['--ignore-leading-blanks', '--dictionary-order', '--ignore-case', '--general-numeric-sort', '--ignore-nonprinting', '--month-sort', '--human-numeric-sort', '--numeric-sort', '--random-sort', '--reverse', '--version-sort', '--stable', '--unique', '--zero-terminated', '--check'], values: ['-k', '-t', '--key', '--field-separator', '-S', '--buffer-size'] },
  uniq: { flags: 'cdDiuz', long: ['--count', '--repeated', '--ignore-case', '--unique', '--zero-terminated'], values: ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars'], maxOperands: 1 },
  cut: { flags: 'snz', long: ['--complement', '--only-delimited', '--zero-terminated'], values: ['-b', '-c', '-d', '-f', '--bytes', '--characters', '--delimiter', '--fields', '--output-delimiter'] },
  tr: { flags: 'cCdst', long: ['--complement', '--delete', '--squeeze-repeats', '--truncate-set1'] },
  nl: { flags: 'p', values: ['-b', '-n', '-w', '-s', '-v', '-i'] },
  tac: { flags: 'br', values: ['-s', '--separator'] },
  rev: {},
  paste: { flags: 'sz', long: ['--serial'], values: ['-d', '--delimiters'] },
  comm: { flags: '123z', long: ['--check-order', '--nocheck-order', '--total'] },
  diff: { flags: 'abBdeEiNpqrsStTuwyZ', long: ['--brief', '--report-identical-files', '--recursive', '--new-file', '--ignore-case', '--ignore-all-space', '--ignore-space-change', '--ignore-blank-lines', '--text', '--side-by-side', '--unified', '--context', '--color', '--minimal', '--expand-tabs'], values: ['-U', '-C', '-x', '-I', '-W', '--label', '--unified', '--context', '--exclude', '--color', '--width'] },
  cmp: { flags: 'bls', long: ['--print-bytes', '--verbose', '--quiet', '--silent'], values: ['-i', '-n', '--ignore-initial', '--bytes'] },
  seq: { flags: 'w', long: ['--equal-width'], values: ['-f', '-s', '--format', '--separator'] },
  sleep: { maxOperands: 1 },
  md5sum: CHECKSUM, sha1sum: CHECKSUM, sha224sum: CHECKSUM, sha256sum: CHECKSUM, sha384sum: CHECKSUM, sha512sum: CHECKSUM, b2sum: CHECKSUM, cksum: {},
  base64: { flags: 'di', long: ['--decode', '--ignore-garbage'], values: ['-w', '--wrap'] },
  base32: { flags: 'di', long: ['--decode', '--ignore-garbage'], values: ['-w', '--wrap'] },
  od: { flags: 'bcdfilosxv', values: ['-A', '-j', '-N', '-t', '-w'] },
  // Never -C (compiles a magic file), -m, or -z (may start decompressors).
  file: { flags: 'bhiLNkrs', long: ['--brief', '--mime', '--mime-type', '--mime-encoding', '--dereference', '--no-dereference', '--keep-going', '--special-files'] },
  stat: { flags: 'LftZ', long: ['--dereference', '--file-system', '--terse'], values: ['-c', '--format', '--printf'] },
  // Never -o (writes a file).
  tree: { flags: 'adfiglpsuhDFrtvxCAnJ', long: ['--dirsfirst', '--noreport', '--gitignore'], values: ['-L', '-P', '-I', '--filelimit'] },
  jq: { flags: 'rcnsSjaeCMR', long: ['--raw-output', '--compact-output', '--slurp', '--null-input', '--sort-keys', '--join-output', '--ascii-output', '--exit-status', '--tab', '--color-output', '--monochrome-output', '--raw-input'], values: ['--indent'] },
  column: { flags: 't', long: ['--table'], values: ['-s', '-c', '-o', '-N', '--separator', '--output-separator'] },
  fold: { flags: 'bs', long: ['--bytes', '--spaces'], values: ['-w', '--width'] },
  strings: { flags: 'af', values: ['-n', '-t', '-e'] },
  nproc: { long: ['--all'], maxOperands: 0 },
  printenv: {},
  // Only bare `env` (prints the environment); `env CMD` runs a command.
  env: { maxOperands: 0 },
  tty: { maxOperands: 0 },
  arch: { maxOperands: 0 },
  uptime: { flags: 'ps', maxOperands: 0 },
  free: { flags: 'bkmghltw', maxOperands: 0 },
  // Not cargo or rustc: they are usually rustup's proxies, which read the project's
  // rust-toolchain.toml, and a toolchain `path` there (`/proc/self/cwd/…`) runs the project's own
  // program even for `--version`.
  node: VERSION_ONLY, npm: VERSION_ONLY, python: VERSION_ONLY, python3: VERSION_ONLY, pip: VERSION_ONLY, pip3: VERSION_ONLY,
  yarn: VERSION_ONLY, pnpm: VERSION_ONLY, ruby: VERSION_ONLY, deno: VERSION_ONLY,
};

/**
 * git: only read-only subcommands that run no program chosen by configuration. Not here, on
 * purpose: diff, show, blame and log -p (external diff drivers and textconv come from the
 * repository's configuration), grep -O, config, and every global option (-c, -C, --git-dir,
 * --work-tree, --exec-path, --config-env, --namespace…).
 */
const GIT_SUBCOMMANDS: Readonly<Record<string, ProgramSpec>> = {
  status: { flags: 'sbvz', long: ['--short', '--branch', '--porcelain', '--long', '--verbose', '--show-stash', '--ahead-behind', '--no-ahead-behind', '--renames', '--no-renames'], values: ['-u', '--untracked-files', '--porcelain', '--ignored'] },
  log: {
    long: ['--oneline', '--graph', '--decorate', '--no-decorate', '--all', '--reverse', '--abbrev-commit', '--no-merges', '--merges', '--first-parent', '--date-order', '--topo-order', '--name-only', '--no-color', '--no-show-signature'],
    values: ['-n', '--max-count', '--skip', '--since', '--until', '--after', '--before', '--author', '--committer', '--grep', '--format', '--pretty', '--date', '--decorate'],
    numeric: true,
  },
  branch: { flags: 'avrl', long: ['--list', '--all', '--remotes', '--verbose', '--show-current', '--no-color'], values: ['--contains', '--merged', '--no-merged', '--sort', '--format', '--points-at'], operandsOnlyWith: ['-l', '--list'] },
  tag: { flags: 'l', long: ['--list'], values: ['--sort', '--contains', '--merged', '--points-at', '--format'], operandsOnlyWith: ['-l', '--list'] },
  remote: { flags: 'v', long: ['--verbose'], maxOperands: 0 },
  'rev-parse': { flags: 'q', long: ['--show-toplevel', '--abbrev-ref', '--short', '--git-dir', '--is-inside-work-tree', '--show-prefix', '--show-cdup', '--verify', '--symbolic-full-name', '--absolute-git-dir', '--git-common-dir', '--quiet'] },
  'rev-list': { long: ['--count', '--all', '--reverse', '--first-parent', '--no-merges'], values: ['-n', '--max-count'] },
  'ls-files': { flags: 'cdmoiksuz', long: ['--cached', '--deleted', '--modified', '--others', '--ignored', '--stage', '--exclude-standard', '--full-name', '--error-unmatch'], values: ['-x', '--exclude'] },
  'ls-tree': { flags: 'rdtlz', long: ['--name-only', '--full-tree', '--full-name', '--long'] },
  describe: { long: ['--tags', '--always', '--long', '--exact-match', '--all'], values: ['--abbrev', '--match', '--exclude'] },
  shortlog: { flags: 'sne', long: ['--summary', '--numbered', '--email'] },
  'show-ref': { long: ['--heads', '--tags', '--head', '--verify'] },
  'merge-base': { long: ['--is-ancestor', '--all'] },
  'for-each-ref': { values: ['--format', '--sort', '--count'] },
  'count-objects': { flags: 'vH' },
  'cat-file': { flags: 'tsep' },
  version: { maxOperands: 0 },
};

/** Null when the command (program and arguments, all plain words) is on the allow-list; else why not. */
export function allowListVerdict(name: string, args: readonly ShellWord[]): string | null {
  if (!Object.prototype.hasOwnProperty.call(ALLOWED_PROGRAMS, name) && name !== 'git') return `${name} is not on the allow-list of harmless programs`;
  const nonPlain = args.find((a) => !a.plain);
  if (nonPlain) return `"${nonPlain.raw}" is not a plain word`;
  const texts = args.map((a) => a.text);
  if (name === 'git') return gitVerdict(texts);
  if (name === 'find') return findVerdict(texts);
  if (name === 'printf' && texts[0]?.startsWith('-')) return 'printf takes no options here (-v assigns a variable)';
  const spec = ALLOWED_PROGRAMS[name]!;
  // A glob is a plain word that may become several: `uniq a*` is `uniq a1 a2`, which writes a2.
  const glob = spec.maxOperands !== undefined || spec.operand ? args.find((a) => /[*?[]/.test(a.raw)) : undefined;
  if (glob) return `"${glob.raw}" may expand to more operands than ${name} is allowed without asking`;
  return optionsVerdict(name, spec, texts);
}

function gitVerdict(args: string[]): string | null {
  let i = 0;
  while (args[i] === '--no-pager') i++;
  const sub = args[i];
  if (sub === undefined) return null;
  if (sub === '--version') return args.length === i + 1 ? null : 'git --version takes nothing else';
  if (sub.startsWith('-')) return `the git option ${sub} is not allowed without asking (it can change where git reads its configuration or runs programs)`;
  const spec = Object.prototype.hasOwnProperty.call(GIT_SUBCOMMANDS, sub) ? GIT_SUBCOMMANDS[sub] : undefined;
  if (!spec) return `"git ${sub}" is not a read-only git command on the allow-list (it may write, use the network, be an alias, or run a program from the repository's configuration)`;
  return optionsVerdict(`git ${sub}`, spec, args.slice(i + 1));
}

function optionsVerdict(name: string, spec: ProgramSpec, args: string[]): string | null {
  const operands: string[] = [];
  const seen = new Set<string>();
  const flags = spec.flags ?? '';
  const values = spec.values ?? [];
  const long = spec.long ?? [];
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!;
    if (t === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!t.startsWith('-') || t === '-') {
      operands.push(t);
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(t)) continue;
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const opt = eq === -1 ? t : t.slice(0, eq);
      if (eq !== -1) {
        if (!values.includes(opt)) return `${opt}=… is not an option the barrier allows for ${name}`;
      } else if (long.includes(opt)) {
        // a flag
      } else if (values.includes(opt)) {
        if (i + 1 >= args.length) return `${opt} needs a value`;
        i++;
      } else return `${opt} is not an option the barrier allows for ${name} (options must be spelled in full)`;
      seen.add(opt);
      continue;
    }
    for (let k = 1; k < t.length; k++) {
      const letter = t[k]!;
      if (values.includes(`-${letter}`)) {
        seen.add(`-${letter}`);
        if (k === t.length - 1) {
          if (i + 1 >= args.length) return `-${letter} needs a value`;
          i++;
        }
        break;
      }
      if (!flags.includes(letter)) return `-${letter} is not an option the barrier allows for ${name}`;
      seen.add(`-${letter}`);
    }
  }
  if (spec.maxOperands !== undefined && operands.length > spec.maxOperands) return `${name} is allowed with at most ${spec.maxOperands} operand${spec.maxOperands === 1 ? '' : 's'}`;
  if (spec.operandsOnlyWith && operands.length > 0 && !spec.operandsOnlyWith.some((o) => seen.has(o))) return `${name} with an operand changes something`;
  if (spec.operand) {
    const bad = operands.find((o) => !spec.operand!(o));
    if (bad !== undefined) return `"${bad}" is not an operand the barrier allows for ${name}`;
  }
  return null;
}

const FIND_WITH_VALUE = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-type', '-xtype', '-maxdepth', '-mindepth', '-size', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-newer', '-user', '-group', '-perm', '-links', '-inum', '-samefile', '-uid', '-gid', '-printf']);
const FIND_FLAGS = new Set(['-print', '-print0', '-empty', '-readable', '-writable', '-executable', '-follow', '-xdev', '-mount', '-depth', '-prune', '-true', '-false', '-not', '-o', '-a', '-or', '-and', '-nouser', '-nogroup', '-daystart', '-ls', '!', '(', ')', ',']);

/** find: its predicates, never -exec/-execdir/-ok/-okdir, -delete, -fprint*, -fls. */
function findVerdict(args: string[]): string | null {
  let i = 0;
  while (['-L', '-H', '-P'].includes(args[i] ?? '')) i++;
  while (i < args.length && !args[i]!.startsWith('-') && !['!', '(', ')', ','].includes(args[i]!)) i++; // starting points
  for (; i < args.length; i++) {
    const t = args[i]!;
    if (FIND_FLAGS.has(t)) continue;
    if (FIND_WITH_VALUE.has(t)) {
      if (i + 1 >= args.length) return `${t} needs a value`;
      i++;
      continue;
    }
    return `"${t}" is not a find predicate the barrier allows`;
  }
  return null;
}
