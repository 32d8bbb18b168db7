/**
 * Keeps the head and the tail of a stream of text within a byte budget (spec 3.5: output capped,
 * head and tail kept, with a marker). Counts UTF-16 code units as a close, cheap proxy for bytes.
 */
export class OutputCap {
  private head = '';
  private tail = '';
  private omitted = 0;

  constructor(private readonly max: number) {}

  push(chunk: string): void {
    const half = Math.floor(this.max / 2);
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (!chunk) return;
    }
    this.tail += chunk;
    if (this.tail.length > half) {
      const drop = this.tail.length - half;
      this.omitted += drop;
      this.tail = this.tail.slice(drop);
    }
  }

  text(): string {
    if (this.omitted === 0) return this.head + this.tail;
    return `${this.head}\n… [${this.omitted} characters omitted] …\n${this.tail}`;
  }
}
