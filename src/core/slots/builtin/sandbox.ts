import type { ChildProcess } from 'node:child_process';
import { homedir } from 'node:os';
import { constants } from 'node:os';
import { isAbsolute } from 'node:path';
import { bubblewrapBaseArgs, bubblewrapPolicyArgs, bubblewrapProgram, bubblewrapSetsEnv, confinedCommand, confinementFailed, DEFAULT_MAX_PROCESSES, detectConfinement, PidsCgroup, processLimitPrefix, sandboxPolicy, startGroupMoveWait, type ConfinementPolicy, type ConfinementStatus, type GitControlScan } from '../../sandbox/index.js';
import type { SandboxResult } from '../contracts.js';
import { launch, type Launched } from './launch.js';
import { OutputCap } from './output-cap.js';
import { randomHex } from '../../random-id.js';

export type { ConfinementStatus } from '../../sandbox/index.js';

export interface SandboxRunOptions {
  cwd: string;
  /** The writable root (the workspace, or the agent's home); defaults to `cwd`. */
  workspace?: string;
  /** Already reduced to the allow-list (spec 8); the child inherits nothing else. */
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Live output, for surfaces that show the command as it runs (the VS Code terminal). */
  onData?: (chunk: string) => void;
  maxOutputChars?: number;
  /** Run with the network (only for a call the person approved with its "network" risk shown). */
  network?: boolean;
  /** The git control scan the caller made just before (spec 8.1); made again when absent. */
  gitScan?: GitControlScan;
}

export interface SandboxRunResult extends SandboxResult {
  timedOut: boolean;
  cancelled: boolean;
  /** The shell inside the confinement said it was there (its mark, see StartMark): the command was started. */
  started?: boolean;
}

export interface BuiltinSandboxOptions {
  /** $PEPE_HOME: hidden from every command. */
  pepeHome?: string;
  /** The person's home folder (default: the OS's): hidden, except the toolchains, read-only (spec 8). */
  home?: string;
  /** What the person added: `sandbox.readable` and `sandbox.writable` (read on every command). */
  places?: () => { readable?: string[]; writable?: string[] };
  /** The host's environment, for the places its variables name (default: this process's). */
  hostEnv?: NodeJS.ProcessEnv;
  /** How to find out whether commands can be confined (default: probe the OS once). */
  detect?: () => Promise<ConfinementStatus>;
  maxProcesses?: number;
}

export const DEFAULT_SANDBOX_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_CHARS = 128 * 1024;

/**
 * The built-in sandbox occupant (spec 3.5): runs the program confined (bubblewrap on Linux,
 * Seatbelt on macOS; see src/core/sandbox), as `wrapper program argv…` when `sandbox.wrapper` is
 * set (the wrapper runs inside the confinement too). Where nothing can confine, it still runs the
 * command as a plain child process and `status()` says so with the reason, so the barrier asks
 * for every command. Output is stdout and stderr interleaved, capped keeping head and tail; the
 * exit status is exact (128+n for a signal, 127 when the program does not exist); at the deadline
 * the whole process group is killed, and under confinement everything the command started dies
 * with it.
 */
export class BuiltinSandbox {
  private readonly detect: () => Promise<ConfinementStatus>;

  constructor(
    private readonly wrapper: () => string | undefined = () => undefined,
    private readonly options: BuiltinSandboxOptions = {},
  ) {
    this.detect = options.detect ?? detectConfinement;
  }

  /** Whether commands run confined now; when not, why (shown by slot list, doctor and the Slots tree). */
  status(): Promise<ConfinementStatus> {
    return this.detect();
  }

  async run(program: string, argv: string[], opts: SandboxRunOptions): Promise<SandboxRunResult> {
    const wrapper = this.wrapper();
    const command = wrapper ? [wrapper, program, ...argv] : [program, ...argv];
    const status = await this.status();
    if (!status.confined) return this.spawn('/bin/sh', ['-c', 'exec "$@" 2>&1', 'sh', ...command], opts.env, opts);

    const policy = sandboxPolicy({
      workspace: opts.workspace ?? opts.cwd,
      cwd: opts.cwd,
      pepeHome: this.options.pepeHome,
      home: this.options.home ?? homedir(),
      network: opts.network === true,
      visible: wrapper && isAbsolute(wrapper) ? [wrapper] : [],
      ...this.options.places?.(),
      hostEnv: this.options.hostEnv ?? process.env,
      gitScan: opts.gitScan,
      maxProcesses: this.options.maxProcesses,
    });
    // The host's temp folder is not there inside: the private /tmp is.
    const env = status.backend === 'bubblewrap' && opts.env.TMPDIR !== undefined ? { ...opts.env, TMPDIR: '/tmp' } : opts.env;
    const limit = this.cgroupLimit(status);
    const warm = limit && WarmShell.takes(policy, command, env) ? this.warmShell(limit) : null;
    const cgroup = limit && !warm ? PidsCgroup.create(limit) : null;
    let result: SandboxRunResult;
    const mark = new StartMark();
    try {
      let started: Launched;
      if (warm) started = warm.exec(policy, command, env, mark);
      else {
        // Inside: set the process limit, say the confinement is set up (StartMark), join stderr to
        // stdout (two pipes cannot keep the order in which a program interleaves them), then exec
        // the command. The shell parses nothing else.
        const inner = ['/bin/sh', '-c', `${processLimitPrefix(policy)}${StartMark.SAY}exec "$@" 2>&1`, 'sh', ...command];
        const { file, args } = confinedCommand(policy, inner);
        const marked = { ...env, [StartMark.VAR]: mark.text };
        started = cgroup
          ? // Join the group before bubblewrap starts, so nothing it forks is ever outside it.
            this.launch('/bin/sh', ['-c', 'echo $$ > "$0" && exec "$@"', cgroup.procsFile, file, ...args], marked, opts)
          : this.launch(file, args, marked, opts);
      }
      // Groups a gone Pepe left behind are removed while this command runs, not before it starts.
      if (limit) PidsCgroup.sweepLeftovers();
      result = await this.follow(started, opts, mark);
    } finally {
      warm?.dispose();
      cgroup?.dispose();
      if (limit) this.rewarm(limit);
    }
    if (status.backend === 'bubblewrap' && !result.started && result.exitStatus === 1 && result.output.startsWith('bwrap: ')) {
      // bubblewrap could not set the confinement up (a stored "confined" gone stale, say): the
      // command did not run, and it is not retried unconfined. The next command probes afresh.
      // Only when the shell inside never said it was there: a command that prints what bubblewrap
      // prints is the command's output (it ran; saying otherwise would have it run again).
      confinementFailed();
      result.output += '\n[pepe: the sandbox could not start this command; it did not run]';
    }
    return result;
  }

  /**
   * A command is on its way (asked for, not yet judged): the shell it will take is started now,
   * and the kernel's wait for the move into its process-limit group (see warmShell) is begun
   * before the shell is even spawned, so that wait overlaps with starting the shell, the barrier's
   * work and the person's answer instead of lying on the first command's path. Nothing when a
   * shell is waiting or being started already, when the process limit is not a cgroup (not root),
   * or when commands are not confined by bubblewrap. A command refused after all leaves the shell
   * waiting for the next one (ended with Pepe, like any waiting shell).
   */
  async warmUp(): Promise<void> {
    if (this.disposed || this.warm || process.getuid?.() !== 0) return;
    const status = await this.status();
    const limit = this.cgroupLimit(status);
    if (!limit || !bubblewrapSetsEnv() || this.warm || this.disposed) return;
    if (this.rewarming) clearImmediate(this.rewarming);
    this.rewarming = null;
    this.warm = WarmShell.start(limit, true);
  }

  /**
   * The process limit a pids cgroup holds for a command (0: none): as root, RLIMIT_NPROC does not
   * apply, so under bubblewrap a cgroup holds it (the policy's limit, sandboxPolicy's default).
   */
  private cgroupLimit(status: ConfinementStatus): number {
    if (!status.confined || status.backend !== 'bubblewrap' || process.getuid?.() !== 0) return 0;
    return this.options.maxProcesses ?? DEFAULT_MAX_PROCESSES;
  }

  /**
   * The shell waiting in a fresh pids cgroup for the next confined command, taken for this one
   * (the next is started when this command is done: rewarm). Moving a process into a cgroup waits
   * for the kernel (an RCU grace period, 5–25 ms); a shell that moved itself in ahead of time,
   * and was spawned ahead of time, takes both off the command's path. Null the first time
   * (nothing waiting yet) and where bubblewrap cannot take the environment as arguments (--setenv).
   */
  private warmShell(limit: number): WarmShell | null {
    if (!bubblewrapSetsEnv()) return null;
    if (this.rewarming) {
      // Asked again before the next shell was started: start it now (still no slower than a cold start).
      clearImmediate(this.rewarming);
      this.rewarming = null;
      this.warm ??= WarmShell.start(limit, true);
    }
    const ready = this.warm?.limit === limit && this.warm.alive() ? this.warm : null;
    if (!ready) this.warm?.discard();
    this.warm = null;
    return ready;
  }

  /** Starts the next waiting shell once this command is done, off its path (spawning costs too). */
  private rewarm(limit: number): void {
    if (!bubblewrapSetsEnv() || this.warm || this.rewarming || this.disposed) return;
    this.rewarming = setImmediate(() => {
      this.rewarming = null;
      if (!this.warm && !this.disposed) this.warm = WarmShell.start(limit);
    }).unref();
  }

  private rewarming: NodeJS.Immediate | null = null;
  private disposed = false;

  private warm: WarmShell | null = null;

  private launch(file: string, args: string[], env: Record<string, string>, opts: SandboxRunOptions): Launched {
    // Input from /dev/null, not a closed pipe: bash reads ~/.bashrc when its input is a socket.
    return launch(file, args, opts.cwd, env, 'ignore');
  }

  private spawn(file: string, args: string[], env: Record<string, string>, opts: SandboxRunOptions): Promise<SandboxRunResult> {
    return this.follow(this.launch(file, args, env, opts), opts);
  }

  /** Ends the shell kept waiting for the next command (see warmShell). */
  dispose(): void {
    this.disposed = true;
    if (this.rewarming) clearImmediate(this.rewarming);
    this.rewarming = null;
    this.warm?.discard();
    this.warm = null;
  }

  private async follow({ child, done }: Launched, opts: SandboxRunOptions, mark?: StartMark): Promise<SandboxRunResult> {
    const cap = new OutputCap(opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS);
    let timedOut = false;
    let cancelled = false;
    const killGroup = () => {
      if (child?.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      killGroup();
    };
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    // stdout and stderr as one text, in the order the chunks arrive (the command's own stderr is
    // already joined to its stdout inside; bubblewrap's messages come on stderr, or on stdout
    // too from the shell kept waiting, which joins the two itself).
    const take = (text: string) => {
      if (!text) return;
      cap.push(text);
      opts.onData?.(text);
    };
    for (const stream of [child?.stdout, child?.stderr]) {
      stream?.setEncoding('utf8');
      // The start mark comes on stdout, before anything the command prints: taken out there.
      stream?.on('data', (chunk: string) => take(mark && stream === child?.stdout ? mark.filter(chunk) : chunk));
    }
    const result = await done;
    if (mark) take(mark.rest());
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);

    let exitStatus: number;
    let output = cap.text();
    if (typeof result.exitCode === 'number') {
      exitStatus = result.exitCode;
    } else if (result.signal) {
      exitStatus = 128 + (constants.signals[result.signal as keyof typeof constants.signals] ?? 0);
    } else {
      exitStatus = 1;
      output += `${output ? '\n' : ''}${result.message}`;
    }
    if (timedOut) output += `\n[pepe: timed out after ${opts.timeoutMs} ms; the process group was killed]`;
    if (cancelled) output += '\n[pepe: cancelled; the process group was killed]';
    return { output, exitStatus, timedOut, cancelled, ...(mark ? { started: mark.seen } : {}) };
  }
}


/**
 * Proof that a command was started inside its confinement: the shell inside prints a line only this
 * run knows (random, given in a variable it removes before the command runs) before anything
 * else, and Pepe takes the line out of the output. bubblewrap's own messages about a confinement
 * it could not set up come before that line or without it; what comes after is the command's, even
 * when it reads like bubblewrap's (a command cannot print the line: it never sees it).
 */
class StartMark {
  /** The variable that carries the line in. */
  static readonly VAR = '__pepe_started';
  /** What the shell inside runs first (no expansion but of the variable, quoted). */
  static readonly SAY = `printf '%s\\n' "$${StartMark.VAR}"; unset ${StartMark.VAR}; `;
  /** Longest stdout held back while looking for the line (bubblewrap's own messages before it are short). */
  private static readonly HOLD = 64 * 1024;

  readonly text = `[pepe-sandbox-started ${randomHex(16)}]`;
  seen = false;
  private looking = true;
  private held = '';

  /** The stdout text to pass on: held back until the line has come, and without it. */
  filter(chunk: string): string {
    if (!this.looking) return chunk;
    this.held += chunk;
    const at = this.held.indexOf(`${this.text}\n`);
    if (at !== -1) {
      this.seen = true;
      this.looking = false;
      const out = this.held.slice(0, at) + this.held.slice(at + this.text.length + 1);
      this.held = '';
      return out;
    }
    if (this.held.length <= StartMark.HOLD) return '';
    this.looking = false;
    return this.rest();
  }

  /** What is still held back (the stream ended without the line). */
  rest(): string {
    const out = this.held;
    this.held = '';
    this.looking = false;
    return out;
  }
}

/** Names of the variables that carry the command's words to the shell inside (see WarmShell). */
const WORD_VAR = '__pepe_word_';
const WORD_COUNT = '__pepe_words';
const COMPLETE = '__pepe_complete';
/** The shell's own counter: a name of the same kind, so a command's variable never takes its place (see takes). */
const COUNTER = '__pepe_i';
/** bubblewrap refuses more than 9000 arguments in all; the command's words cost three each here. */
const MAX_SENT_ARGS = 8000;
/** The kernel takes at most 128 KiB for one variable (name=value); far below that, to be sure. */
const MAX_WORD_CHARS = 32 * 1024;

/**
 * A shell started ahead of time in a pids cgroup of its own (created with the limit). It joins the
 * group first, so everything it starts is inside; if it cannot, it exits 125 and no command runs.
 * Then it becomes bubblewrap at once (`exec`), which waits for the rest of its arguments on the
 * shell's input (`--args`): the next command's policy (the network namespace, its places, its
 * working folder), its environment as `--clearenv --setenv…`, and its words as variables, which
 * the shell inside turns back into the command line, unsets and execs. So when a command comes,
 * it is one write, and bubblewrap is already started: no process to start, no line to parse.
 *
 * What bubblewrap is started with holds for every command (bubblewrapBaseArgs: the namespaces but
 * the network's, the read-only root, /dev, /proc, a private /tmp and /run). What comes on the input
 * is the rest of exactly what bubblewrapArgs gives for the policy. The words come last but one,
 * and a variable saying the input is complete last: bubblewrap reads to the end of its input, so
 * input cut short (Pepe gone mid-write) never has it, and then nothing is run. One not needed
 * after all is killed while it waits. Its stderr is joined to its stdout once it is in the group,
 * so the command's output and bubblewrap's own messages come on one pipe, in the order they were
 * written (and one pipe fewer is made on the first command's path).
 */
class WarmShell {
  private constructor(
    readonly limit: number,
    private readonly cgroup: PidsCgroup,
    private readonly launched: Launched & { child: ChildProcess },
  ) {}

  /**
   * Whether a command can go through a waiting shell; otherwise it is started directly, as the
   * first one is. Not when a word, a variable or a place of the policy holds a NUL byte (it would
   * end that argument early here; started directly, Node refuses it), when the environment has a
   * variable of the names used here, when a word is very long (a variable holds less than an
   * argument) or when there are too many words.
   */
  static takes(policy: ConfinementPolicy, command: string[], env: Record<string, string>): boolean {
    const entries = Object.entries(env);
    if (entries.some(([k, v]) => k.startsWith('__pepe_') || k.includes('\0') || v.includes('\0'))) return false;
    if (command.some((w) => w.includes('\0') || w.length > MAX_WORD_CHARS)) return false;
    // Every place is sent too: one holding a NUL byte would become arguments of its own, read as options.
    if ([policy.cwd, ...policy.writable, ...policy.readOnly, ...policy.hidden].some((p) => p.includes('\0'))) return false;
    return 3 * (command.length + entries.length) + 4 * (policy.writable.length + policy.readOnly.length + policy.hidden.length) < MAX_SENT_ARGS;
  }

  /**
   * `soon`: a command is waiting or on its way, so the kernel's wait for the shell's move is begun
   * now (startGroupMoveWait), before the spawn. After the group is made: a move holds the cgroup
   * lock while it waits, and making a group meanwhile would wait on the main thread.
   */
  static start(limit: number, soon = false): WarmShell | null {
    const cgroup = PidsCgroup.create(limit);
    if (!cgroup) return null;
    if (soon) startGroupMoveWait();
    // Inside: the process limit, nothing unless the input was complete, the words back as "$@"
    // (eval sees only this fixed text and a counter), the variables gone, then the command.
    const inner = [
      `${processLimitPrefix({ maxProcesses: limit })}[ "$${COMPLETE}" = 1 ] || exit 125; ${StartMark.SAY}set --; ${COUNTER}=0;`,
      `while [ "$${COUNTER}" -lt "$${WORD_COUNT}" ]; do eval "set -- \\"\\$@\\" \\"\\$${WORD_VAR}$${COUNTER}\\""; unset "${WORD_VAR}$${COUNTER}"; ${COUNTER}=$((${COUNTER} + 1)); done;`,
      `unset ${COMPLETE} ${WORD_COUNT} ${COUNTER}; exec "$@" 2>&1`,
    ].join(' ');
    const bwrap = [bubblewrapProgram(), ...bubblewrapBaseArgs(), '--args', '3', '--', '/bin/sh', '-c', inner, 'sh'];
    // stderr is /dev/null until `exec 2>&1`: what a failed join says goes to stdout (`2>&1` before `>`).
    // bubblewrap reads its arguments from fd 3; the command's input is /dev/null (bash reads
    // ~/.bashrc when its input is a socket).
    const script = 'echo $$ 2>&1 > "$0" || { echo "pepe: could not enter the process-limit group"; exit 125; }; exec 2>&1; exec "$@" 3<&0 </dev/null';
    const launched = launch('/bin/sh', ['-c', script, cgroup.procsFile, ...bwrap], '/', { PATH: '/usr/bin:/bin' }, 'pipe', 'joined');
    const { child } = launched;
    if (!child) {
      // Nothing waiting then: the next command joins its group the slower way.
      cgroup.dispose();
      return null;
    }
    // Waiting must not keep Pepe alive; it is ended when Pepe exits.
    child.stdin?.on('error', () => undefined); // a shell gone before its input was written
    for (const h of [child, child.stdin, child.stdout, child.stderr] as Array<{ unref?: () => void } | null>) h?.unref?.();
    live.add(child);
    void launched.done.then(() => live.delete(child));
    return new WarmShell(limit, cgroup, { child, done: launched.done });
  }

  private get child(): ChildProcess {
    return this.launched.child;
  }

  alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null && this.child.stdin?.writable === true;
  }

  /** Sends bubblewrap the rest of its arguments (check `takes` first), NUL-separated. */
  exec(policy: ConfinementPolicy, command: string[], env: Record<string, string>, mark: StartMark): Launched {
    for (const h of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as Array<{ ref?: () => void } | null>) h?.ref?.();
    const args = [
      ...bubblewrapPolicyArgs(policy),
      '--clearenv',
      ...Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v]),
      ...command.flatMap((word, i) => ['--setenv', `${WORD_VAR}${i}`, word]),
      '--setenv',
      StartMark.VAR,
      mark.text,
      '--setenv',
      WORD_COUNT,
      String(command.length),
      '--setenv',
      COMPLETE,
      '1',
    ];
    this.child.stdin?.end(args.map((a) => `${a}\0`).join(''));
    return this.launched;
  }

  dispose(): void {
    this.cgroup.dispose();
  }

  /** Not needed after all: killed before it reads anything, and its group is removed. */
  discard(): void {
    const pid = this.child.pid;
    try {
      if (pid !== undefined) process.kill(-pid, 'SIGKILL');
    } catch {
      // gone already
    }
    this.cgroup.dispose();
  }
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) if (child.pid !== undefined) try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
});

