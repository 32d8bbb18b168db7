import { spawn, type ChildProcess } from 'node:child_process';
import { withoutInherited } from '../../sandbox/inherited-fds.js';

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
    child = spawn(file, args, { cwd, env, stdio: withoutInherited([stdin, 'pipe', stderr === 'pipe' ? 'pipe' : 'ignore']), detached: true });
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
