import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import type { Options as ExecaOptions } from 'execa';

/**
 * A child's descriptors: `stdio`, and /dev/null in place of every descriptor this process was
 * started with that is not closed on exec (a `make` jobserver's pipe, a shell's `exec 20>>file`).
 * Every child would get those, a confined command too, and could write through them (or reopen
 * them through /proc) to a file outside its policy; bubblewrap does not close them, and neither
 * does Node. Node opens its own descriptors closed on exec, so these are only what the process
 * was started with: read once, on Linux from /proc/self/fdinfo (elsewhere none are known).
 */
type Fd = 'ignore' | 'pipe';
export function withoutInherited<T extends Fd>(stdio: [T, T, T, ...T[]]): [T, T, T, ...Array<T | 'ignore' | number>] {
  const leaked = inherited();
  if (!leaked.length) return stdio;
  const out: [T, T, T, ...Array<T | 'ignore' | number>] = [...stdio];
  devNull ??= openSync('/dev/null', 'r+');
  for (const fd of leaked) {
    // A descriptor the caller gives the child itself (the plugin host's channel, fd 3) stays.
    if (fd < stdio.length) continue;
    while (out.length < fd) out.push('ignore');
    out[fd] = devNull;
  }
  return out;
}

let leakedFds: number[] | undefined;
let devNull: number | undefined;
/** O_CLOEXEC as /proc/self/fdinfo writes the flags (octal). */
const O_CLOEXEC = 0o2000000;

function inherited(): number[] {
  if (leakedFds) return leakedFds;
  leakedFds = [];
  if (process.platform !== 'linux') return leakedFds;
  let names: string[];
  try {
    names = readdirSync('/proc/self/fdinfo');
  } catch {
    return leakedFds;
  }
  const buf = Buffer.alloc(256);
  for (const name of names) {
    const fd = Number(name);
    // Every one, however high: a child's table is then sized by the highest, which only a parent
    // that moved a descriptor up on purpose makes large.
    if (!Number.isInteger(fd) || fd < 3) continue;
    let info: number | undefined;
    try {
      info = openSync(`/proc/self/fdinfo/${fd}`, 'r');
      const text = buf.toString('latin1', 0, readSync(info, buf, 0, buf.length, 0));
      const at = text.indexOf('flags:');
      if (at !== -1 && (parseInt(text.slice(at + 6).trim(), 8) & O_CLOEXEC) === 0) leakedFds.push(fd);
    } catch {
      // closed meanwhile (the directory listing's own descriptor)
    } finally {
      if (info !== undefined) closeSync(info);
    }
  }
  leakedFds.sort((a, b) => a - b);
  return leakedFds;
}

/**
 * The same for execa: it hands a descriptor number beyond stderr to Node's spawn unchanged (its
 * types list no number there; test/unit/attacks/inherited-fd-children.test.ts holds it to that).
 */
export function execaWithoutInherited(stdio: [Fd, Fd, Fd]): ExecaOptions['stdio'] {
  return withoutInherited(stdio) as ExecaOptions['stdio'];
}
