/**
 * The part every child program of Pepe's shares (host-source.ts, cores/core-host-source.ts): the
 * channel on file descriptor 3, length-prefixed JSON frames both ways (framing.ts), `describe` for
 * errors, and the end of the process when the host goes away. A program that includes it defines
 * `onMessage(msg)`; an inbound frame over IN_LIMIT or that is not JSON ends the process.
 */
export const CHILD_CHANNEL_SOURCE = String.raw`
const IN_LIMIT = 256 * 1024 * 1024;
const channel = new net.Socket({ fd: 3, readable: true, writable: true });

function describe(e) {
  if (e && typeof e === 'object' && 'message' in e) return String(e.message);
  try { return JSON.stringify(e); } catch { return String(e); }
}

function frame(text) {
  const body = Buffer.from(text, 'utf8');
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
}

function send(message) {
  channel.write(frame(JSON.stringify(message)));
}

let chunks = [];
let buffered = 0;
channel.on('data', (chunk) => {
  chunks.push(chunk);
  buffered += chunk.length;
  for (;;) {
    if (buffered < 4) return;
    const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    chunks = [all];
    const length = all.readUInt32BE(0);
    if (length > IN_LIMIT) process.exit(70);
    if (buffered < 4 + length) return;
    const body = all.subarray(4, 4 + length);
    const rest = all.subarray(4 + length);
    chunks = rest.length ? [rest] : [];
    buffered = rest.length;
    let msg;
    try { msg = JSON.parse(body.toString('utf8')); } catch { process.exit(70); }
    onMessage(msg);
  }
});
// The host is gone (or recycled this process): nothing more to do.
channel.on('end', () => process.exit(0));
channel.on('close', () => process.exit(0));
channel.on('error', () => process.exit(0));
`;
