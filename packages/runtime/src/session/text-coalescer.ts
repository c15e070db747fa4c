/**
 * Streams of text deltas become a few `text.delta` events, not one per token: chunks are
 * gathered and written at most every `intervalMs`, one write at a time, in order.
 */
export class TextCoalescer {
  private buffer = "";
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  constructor(
    private readonly write: (text: string) => Promise<void>,
    private readonly intervalMs = 150,
  ) {}

  push(text: string): void {
    this.buffer += text;
    this.timer ??= setTimeout(() => this.flushNow(), this.intervalMs);
  }

  /**
   * Writes what is buffered now and waits for every write so far. Before a retry's event: the
   * deltas of the cut attempt then precede it, and everything after it is the new attempt's.
   */
  async flush(): Promise<void> {
    this.flushNow();
    await this.chain;
  }

  /** Writes what is left and waits for every write; rethrows a failed write (e.g. FENCED). */
  async close(): Promise<void> {
    this.flushNow();
    await this.chain;
    if (this.failure) throw this.failure;
  }

  private flushNow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.buffer) return;
    const text = this.buffer;
    this.buffer = "";
    this.chain = this.chain.then(() =>
      this.failure ? undefined : this.write(text).catch((e) => void (this.failure = e)),
    );
  }
}
