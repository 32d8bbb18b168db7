/**
 * Length-prefixed JSON messages between the host and a plugin host process (spec 3.3): a 4-byte
 * big-endian length, then that many bytes of UTF-8 JSON. The reader checks the length before it
 * buffers anything, so a process that announces (or sends) a message over the cap is caught at
 * once instead of growing the host's memory. The child side has the same logic in its source
 * text (host-source.ts): it runs from text, not from this module.
 */

/** Over this many bytes a message from a plugin is malformed and its process is recycled. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export class FrameError extends Error {}

export function encodeFrame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const header = Buffer.allocUnsafe(4);
  header.writeUInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}

/**
 * Feeds bytes in, calls `onMessage` for every complete message. Throws FrameError (and then
 * accepts nothing more) on a message over `maxBytes` or one that is not JSON.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private failed = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onMessage: (message: unknown) => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.failed) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.buffered < 4) return;
      const head = this.peek(4);
      const length = head.readUInt32BE(0);
      if (length > this.maxBytes) {
        this.failed = true;
        throw new FrameError(`a message of ${length} bytes is over the ${this.maxBytes}-byte limit`);
      }
      if (this.buffered < 4 + length) return;
      const frame = this.take(4 + length);
      let message: unknown;
      try {
        message = JSON.parse(frame.subarray(4).toString('utf8'));
      } catch {
        this.failed = true;
        throw new FrameError('a message is not valid JSON');
      }
      this.onMessage(message);
    }
  }

  private peek(n: number): Buffer {
    if (this.chunks[0]!.length >= n) return this.chunks[0]!.subarray(0, n);
    const joined = Buffer.concat(this.chunks);
    this.chunks = [joined];
    return joined.subarray(0, n);
  }

  private take(n: number): Buffer {
    const joined = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const frame = joined.subarray(0, n);
    const rest = joined.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return frame;
  }
}
