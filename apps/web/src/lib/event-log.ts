import type { WireEvent } from "~/trpc/types";

/** The events of one session as the page holds them: in seq order, each seq once. */
export interface EventLog {
  events: WireEvent[];
  seqs: ReadonlySet<number>;
  lastSeq: number;
}

export const EMPTY_LOG: EventLog = { events: [], seqs: new Set(), lastSeq: 0 };

/**
 * Adds events to the log, dropping any seq already held: a replay after a reload or a
 * reconnect, or a second subscription, never shows a row twice. Returns the same log when
 * nothing is new, so React skips the render.
 */
export function mergeEvents(log: EventLog, incoming: readonly WireEvent[]): EventLog {
  const seqs = new Set(log.seqs);
  const fresh: WireEvent[] = [];
  for (const e of incoming) {
    if (seqs.has(e.seq)) continue;
    seqs.add(e.seq);
    fresh.push(e);
  }
  if (fresh.length === 0) return log;
  const inOrder = fresh.every((e, i) => e.seq > (i === 0 ? log.lastSeq : fresh[i - 1]!.seq));
  const events = inOrder ? [...log.events, ...fresh] : [...log.events, ...fresh].sort((a, b) => a.seq - b.seq);
  return { events, seqs, lastSeq: events[events.length - 1]!.seq };
}

/** Seqs are 1, 2, 3, … with no gap in the log, and the page replays from 1: fewer rows than the last seq means some are missing. */
export function missingCount(log: EventLog): number {
  return log.lastSeq - log.events.length;
}
