import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';

/**
 * The CLI's standard output and error. On Linux, Node writes `process.stdout` and
 * `process.stderr` synchronously whatever they are (a terminal, a pipe, a file); writing the file
 * descriptor directly keeps that order and blocking behaviour without building the stream behind
 * them (for a pipe that loads `net` and the streams: a few ms of every command's start-up).
 *
 * - A reader that has gone away (`pepe … | head`): the rest of the output is dropped quietly and the
 *   command finishes as it would have (its transcript complete), instead of dying on EPIPE.
 * - A descriptor set non-blocking by someone else that is momentarily full (EAGAIN): this and every
 *   later write go through Node's stream, which waits for room.
 * - Anything that hands `process.stdout` itself to other code (readline, in `pepe chat`) calls
 *   `useStreams()` first, so no byte written directly can overtake one queued in the stream.
 * - Other systems use Node's streams throughout.
 */
export interface Output {
  (text: string): void;
}

type Fd = 1 | 2;
type Mode = 'direct' | 'stream' | 'closed';

const modes: Record<Fd, Mode> = { 1: process.platform === 'linux' ? 'direct' : 'stream', 2: process.platform === 'linux' ? 'direct' : 'stream' };

/** Text to standard output. */
export const stdout: Output = (text) => write(1, text);
/** Text to standard error. */
export const stderr: Output = (text) => write(2, text);

/** From now on both go through Node's streams (before `process.stdout` is given to other code). */
export function useStreams(): void {
  for (const fd of [1, 2] as const) if (modes[fd] === 'direct') modes[fd] = 'stream';
}

function write(fd: Fd, text: string): void {
  if (modes[fd] === 'closed' || text === '') return;
  if (modes[fd] === 'direct') {
    const bytes = Buffer.from(text, 'utf8');
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done);
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE' || code === 'EBADF') {
        modes[fd] = 'closed';
        return;
      }
      // EAGAIN (a non-blocking descriptor that is full) or anything else: the stream takes the rest.
      modes[fd] = 'stream';
      return streamWrite(fd, bytes.subarray(done));
    }
  }
  streamWrite(fd, text);
}

const watched = new Set<Fd>();

function streamWrite(fd: Fd, data: string | Buffer): void {
  const stream = fd === 1 ? process.stdout : process.stderr;
  if (!watched.has(fd)) {
    watched.add(fd);
    // A reader gone away is not an error of the command: drop what is left, as above.
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE' || e.code === 'EBADF') modes[fd] = 'closed';
      else throw e;
    });
  }
  if (modes[fd] !== 'closed') stream.write(data);
}

/**
 * Whether `fd` is a terminal, as `process.stdin.isTTY` says, without building `process.stdin` (for a
 * pipe that loads `net` and the streams): only a character device can be a terminal, so anything
 * else is answered by one fstat, and a character device is asked of node:tty (which the CLI's bundles
 * load on first use: scripts/cli-bundles.mjs).
 */
export function isTerminal(fd: 0 | 1 | 2): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return isatty(fd);
}
