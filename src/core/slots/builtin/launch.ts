import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

/** How a child ended: its exit code, else the signal that ended it, else why it never ran. */
export interface LaunchResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Why it could not be started (empty when it ran). */
  message: string;
}

export interface Launched {
  /** Absent when Node refused the arguments before starting anything. */
  readonly child?: ChildProcess;
  /** Settles (never rejects) once the child has exited and its output pipes have closed. */
  readonly done: Promise<LaunchResult>;
}

/**
 * Starts a child the way the built-in sandbox needs it: in its own process group (so a deadline
 * kills grandchildren too), with nothing but `env`, output on pipes. Node's own spawn: the first
 * command of a process does not wait for a process library to load (execa's bundle, about 19 ms).
 * Every output byte is delivered to the pipes' listeners before `done` settles (a child's 'close'
 * comes after its pipes' last data). `stderr: 'joined'` is for a child that sends its stderr to
 * its stdout itself (`exec 2>&1`) before anything can write there: no pipe of its own is made
 * for it (each pipe costs its spawn; fd 2 is /dev/null until the child joins it).
 */
export function launch(file: string, args: string[], cwd: string, env: Record<string, string>, stdin: 'ignore' | 'pipe', stderr: 'pipe' | 'joined' = 'pipe'): Launched {
  let child: ChildProcess;
  try {
    child = spawn(file, args, { cwd, env, stdio: withInheritedClosed([stdin, 'pipe', stderr === 'pipe' ? 'pipe' : 'ignore']), detached: true });
  } catch (e) {
    return { done: Promise.resolve({ exitCode: null, signal: null, message: `could not start ${file}: ${e instanceof Error ? e.message : String(e)}` }) };
  }
  const done = new Promise<LaunchResult>((resolve) => {
    let failure = '';
    child.once('error', (e) => {
      failure = `could not start ${file}: ${e.message}`;
      // A child that never started emits no 'close' on every Node version: settle here then.
      if (child.pid === undefined) resolve({ exitCode: null, signal: null, message: failure });
    });
    child.once('close', (exitCode, signal) => resolve({ exitCode, signal, message: failure }));
  });
  return { child, done };
}

/**
 * The child's descriptors: `stdio`, and /dev/null in place of every descriptor this process was
 * started with that is not closed on exec (a `make` jobserver's pipe, a shell's `exec 20>>file`).
 * Every child would get those, a confined command too, and could write through them (or reopen
 * them through /proc) to a file outside its policy; bubblewrap does not close them, and neither
 * does Node. Node opens its own descriptors closed on exec, so these are only what the process
 * was started with: read once, on Linux from /proc/self/fdinfo (elsewhere none are known).
 */
function withInheritedClosed(stdio: Array<'ignore' | 'pipe'>): StdioOptions {
  const leaked = inherited();
  if (!leaked.length) return stdio;
  const out: Array<'ignore' | 'pipe' | number> = [...stdio];
  devNull ??= openSync('/dev/null', 'r+');
  for (const fd of leaked) {
    while (out.length < fd) out.push('ignore');
    out[fd] = devNull;
  }
  return out;
}

let leakedFds: number[] | undefined;
let devNull: number | undefined;
/** Beyond this, a descriptor is not mapped (a child's descriptor table is sized by the highest one). */
const MAX_MAPPED_FD = 4096;
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
    if (!Number.isInteger(fd) || fd < 3 || fd > MAX_MAPPED_FD) continue;
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
