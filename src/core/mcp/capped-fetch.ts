import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * A fetch for a remote server's transport that cuts a response off once one message grows past
 * `maxBytes`, as the stdio transport does for a local server. An event stream is counted per event
 * (a long-lived stream may carry any number of messages), anything else as a whole. Over the cap,
 * the body errors (the transport sees the failure) and `onOver` is told why.
 */
export function cappedFetch(maxBytes: number, onOver: (reason: string) => void, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    const perEvent = /^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const counter = perEvent ? eventCounter(maxBytes) : (chunk: Uint8Array, sofar: number) => sofar + chunk.byteLength;
    const reader = response.body.getReader();
    let size = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (e) {
          controller.error(e);
          return;
        }
        if (next.done) {
          controller.close();
          return;
        }
        size = counter(next.value, size);
        if (size > maxBytes) {
          const reason = `a message from the server was larger than the ${maxBytes}-byte cap; the connection was cut`;
          controller.error(new Error(reason));
          void reader.cancel(reason).catch(() => undefined);
          onOver(reason);
          return;
        }
        controller.enqueue(next.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    const capped = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // A redirect check reads where the answer came from.
    Object.defineProperty(capped, 'url', { value: response.url });
    return capped;
  };
}

/**
 * Bytes of the event being received: a blank line (two line ends in a row, each CR, LF or CRLF)
 * ends an event and starts the count again. An event that passed `maxBytes` anywhere in the chunk
 * counts as Infinity (it may end, and the count restart, within the same chunk).
 */
function eventCounter(maxBytes: number): (chunk: Uint8Array, sofar: number) => number {
  let atLineStart = true;
  let afterCR = false;
  return (chunk, sofar) => {
    let size = sofar;
    for (const b of chunk) {
      if (b === 0x0a && afterCR) {
        afterCR = false;
        continue;
      }
      afterCR = b === 0x0d;
      if (b === 0x0a || b === 0x0d) {
        if (atLineStart) size = 0;
        atLineStart = true;
      } else {
        atLineStart = false;
        if (++size > maxBytes) return Infinity;
      }
    }
    return size;
  };
}
