// Keeps only the last N bytes of a stream, so a run that prints gigabytes costs a fixed amount of memory.

/** A bounded tail of everything appended; older bytes are dropped as new ones arrive. */
export class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = 0;

  constructor(private readonly limit: number) {}

  append(chunk: Buffer): void {
    if (chunk.length >= this.limit) {
      this.dropped += this.size + chunk.length - this.limit;
      this.chunks = [chunk.subarray(chunk.length - this.limit)];
      this.size = this.limit;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0].length >= this.limit) {
      const first = this.chunks.shift() as Buffer;
      this.size -= first.length;
      this.dropped += first.length;
    }
  }

  /** Bytes that were dropped from the front. */
  get droppedBytes(): number {
    return this.dropped + Math.max(0, this.size - this.limit);
  }

  /** The kept tail; how much was dropped before it is `droppedBytes`, for the front ends to say as they see fit. */
  toString(): string {
    const all = Buffer.concat(this.chunks);
    const tail = all.length > this.limit ? all.subarray(all.length - this.limit) : all;
    return tail.toString('utf8');
  }
}
