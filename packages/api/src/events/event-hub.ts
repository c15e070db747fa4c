import { EVENTS_CHANNEL, readEvents, type Db, type StoredEvent } from "@handoff/db";

export interface Wakeups {
  /** Resolves once a commit appended events after `afterSeq` (or at once if one already has), or once the stream is aborted. */
  next(afterSeq: number): Promise<void>;
  close(): void;
}

/**
 * One LISTEN connection per web process, fanned out in process to every stream of a session.
 * A notification says only "session S has events up to seq N"; streams read them from the
 * table, so a missed or coalesced notification loses nothing.
 */
export class EventHub {
  private readonly streams = new Map<string, Set<(seq: number) => void>>();
  private readonly reads = new Map<string, Promise<StoredEvent[]>>();
  private listening: Promise<unknown> | null = null;

  constructor(private readonly db: Db) {}

  /**
   * Subscribe before reading: nothing committed in between is missed. `signal` ends every wait
   * (one listener for the stream's life, not one per wait: a wakeup reaches every stream).
   */
  async subscribe(sessionId: string, signal?: AbortSignal): Promise<Wakeups> {
    await this.start();
    let latest = 0;
    let waitingAfter = 0;
    let wake: (() => void) | null = null;
    const release = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const onNotify = (seq: number) => {
      latest = Math.max(latest, seq);
      if (latest > waitingAfter) release();
    };
    signal?.addEventListener("abort", release, { once: true });
    const set = this.streams.get(sessionId) ?? new Set();
    set.add(onNotify);
    this.streams.set(sessionId, set);
    return {
      next: (afterSeq) =>
        new Promise<void>((resolve) => {
          if (latest > afterSeq || signal?.aborted) return resolve();
          waitingAfter = afterSeq;
          wake = resolve;
        }),
      close: () => {
        signal?.removeEventListener("abort", release);
        release();
        set.delete(onNotify);
        if (set.size === 0) this.streams.delete(sessionId);
      },
    };
  }

  /**
   * Reads a session's events after `afterSeq`. Streams woken by the same notification ask for
   * the same page at the same moment: they share one query instead of one each.
   */
  read(sessionId: string, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    const key = `${sessionId}:${afterSeq}:${limit}`;
    let page = this.reads.get(key);
    if (!page) {
      page = readEvents(this.db.sql, sessionId, afterSeq, limit).finally(() => this.reads.delete(key));
      this.reads.set(key, page);
    }
    return page;
  }

  /** Streams open now (for metrics and tests). */
  get size(): number {
    let n = 0;
    for (const s of this.streams.values()) n += s.size;
    return n;
  }

  private start(): Promise<unknown> {
    this.listening ??= this.db.sql.listen(EVENTS_CHANNEL, (payload) => {
      const i = payload.lastIndexOf(":");
      const sessionId = payload.slice(0, i);
      const seq = Number(payload.slice(i + 1));
      for (const notify of this.streams.get(sessionId) ?? []) notify(seq);
    });
    return this.listening;
  }
}
