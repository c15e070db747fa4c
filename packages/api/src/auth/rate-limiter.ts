/** Requests per token per minute, in fixed one-minute windows, per web process. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(readonly perMinute: number) {}

  /** Counts one request; returns the seconds to wait when over the limit, else 0. */
  take(key: string, now = Date.now()): number {
    const start = now - (now % 60_000);
    const w = this.windows.get(key);
    if (!w || w.start !== start) {
      if (this.windows.size > 10_000) this.windows.clear();
      this.windows.set(key, { start, count: 1 });
      return 0;
    }
    w.count++;
    return w.count > this.perMinute ? Math.ceil((start + 60_000 - now) / 1000) : 0;
  }
}
