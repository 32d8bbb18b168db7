import { homedir } from 'node:os';
import { posix } from 'node:path';
import { hasOption, operands, texts } from './command-args.js';
import type { ShellWord } from './shell-syntax.js';

/**
 * Commands refused before running, whatever was pre-approved (auto_approve "*", a grant, the
 * session bypass): recursive deletion of / or a home folder, filesystem creation, writes to block
 * devices, fork bombs (found by the grammar reader), shutdown and reboot, and commands that
 * reconfigure Pepe itself (`pepe …`, writes into its home folder). A person who really means one
 * of these runs it in their own terminal.
 */

export interface CatastropheContext {
  /** Pepe's home folder ($PEPE_HOME, else ~/.pepe). */
  pepeHome: string;
  /** The user's home folder. */
  home: string;
}

export function defaultCatastropheContext(env: NodeJS.ProcessEnv = process.env): CatastropheContext {
  const home = homedir();
  return { home, pepeHome: env.PEPE_HOME || posix.join(home, '.pepe') };
}

const BLOCK_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|loop\d|sr\d|fd\d|mapper\/|disk\/)/;
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const MKFS = /^(mkfs(\..*)?|mke2fs|mkswap|mkdosfs|mkntfs|mkexfatfs|newfs(_.*)?|wipefs)$/;
const SYSTEMCTL_POWER = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'soft-reboot']);

/** Why this simple command (its program's base name and arguments) is refused; null when it is not catastrophic. */
export function catastrophicCommand(name: string, args: readonly ShellWord[], ctx: CatastropheContext): string | null {
  const list = [...args];
  if (POWER.has(name)) return `${name} shuts the machine down or restarts it`;
  if ((name === 'init' || name === 'telinit') && ['0', '6'].includes(list[0]?.text ?? '')) return `${name} ${list[0]!.text} shuts the machine down or restarts it`;
  if (name === 'systemctl' && list.some((a) => SYSTEMCTL_POWER.has(a.text))) return 'systemctl shuts the machine down or restarts it';
  if (MKFS.test(name)) return `${name} creates or erases a filesystem`;
  if (name === 'diskutil' && list.some((a) => /^(erase|partition|zero|randomize|secureErase)/i.test(a.text))) return 'diskutil erases or repartitions a disk';
  if (name === 'pepe' || (['npx', 'pnpx', 'bunx'].includes(name) && operands(list)[0]?.text === 'pepe')) return 'commands that reconfigure Pepe are run by a person, not by an agent';
  if (name === 'rm' && (hasOption(list, 'rR', ['--recursive']) || texts(list).includes('--no-preserve-root'))) {
    const target = operands(list).find((o) => isRootOrHome(o, ctx));
    if (target) return `rm deletes ${target.raw} recursively`;
  }
  if (name === 'find' && texts(list).includes('-delete')) {
    const start = list.find((w) => !w.text.startsWith('-'));
    if (start && isRootOrHome(start, ctx)) return `find deletes everything under ${start.raw}`;
  }
  if (name === 'dd') {
    const of = list.find((a) => a.text.startsWith('of='));
    if (of && isBlockDevice(of.text.slice(3))) return `dd writes to the block device ${of.text.slice(3)}`;
  }
  if (['tee', 'cp', 'mv', 'install', 'shred', 'cat', 'pv'].includes(name)) {
    const dev = operands(list).find((o) => isBlockDevice(o.text));
    if (dev && name !== 'cat' && name !== 'pv') return `${name} writes to the block device ${dev.text}`;
  }
  return null;
}

/** Why writing to this redirection target is refused; null when it is not catastrophic. */
export function catastrophicWriteTarget(target: ShellWord, ctx: CatastropheContext): string | null {
  if (isBlockDevice(target.text)) return `writes to the block device ${target.text}`;
  if (inPepeHome(target, ctx)) return `writes into Pepe's home folder (${target.raw})`;
  return null;
}

/** A word that names Pepe's home folder or something in it. */
export function inPepeHome(word: ShellWord, ctx: CatastropheContext): boolean {
  if (/\$\{?PEPE_HOME\b/.test(word.raw)) return true;
  const p = normalize(word, ctx);
  if (p === null) return false;
  const home = posix.normalize(ctx.pepeHome);
  return p === home || p.startsWith(home.endsWith('/') ? home : home + '/');
}

export function isBlockDevice(path: string): boolean {
  return BLOCK_DEVICE.test(posix.normalize(path));
}

function isRootOrHome(word: ShellWord, ctx: CatastropheContext): boolean {
  const p = normalize(word, ctx);
  if (p === null) return false;
  const stripped = p.replace(/(\/\*|\/\.)+$/, '').replace(/\/+$/, '') || '/';
  const home = posix.normalize(ctx.home).replace(/\/+$/, '');
  return stripped === '/' || stripped === home || stripped === '/home' || stripped === '/root' || stripped === '/Users' || stripped === '/*';
}

/** The absolute path a word names, with ~ and $HOME expanded; null when it is relative or unknown. */
function normalize(word: ShellWord, ctx: CatastropheContext): string | null {
  let t = word.text;
  t = t.replace(/^\$\{HOME\}|^\$HOME\b/, ctx.home);
  if (t === '~' || t.startsWith('~/')) t = ctx.home + t.slice(1);
  if (!t.startsWith('/')) return null;
  return posix.normalize(t);
}
