import type { Handoff } from "@handoff/sdk";
import { expect } from "vitest";
import type { FaultAudit } from "./audit";
import { within } from "./runs";

/** One session's event stream as an SDK client reads it: the seqs it was given, in order. */
export interface SessionStream {
  sessionId: string;
  seen: number[];
  /** Settles once the stream delivered the session's end. */
  reading: Promise<void>;
}

/** Creates `n` headless sessions through the API and reads each one's events, as a client would, until it ends. */
export async function streamNewSessions(handoff: Handoff, n: number, signal: AbortSignal): Promise<SessionStream[]> {
  const streams: SessionStream[] = [];
  for (let i = 0; i < n; i++) {
    const { sessionId } = await handoff.createSession({ mode: "headless" });
    const seen: number[] = [];
    const reading = (async () => {
      for await (const e of handoff.events(sessionId, { signal })) {
        seen.push(e.seq);
        if (e.type === "session.status" && e.data.status === "ended") return;
      }
    })();
    streams.push({ sessionId, seen, reading });
  }
  return streams;
}

/** Waits for every stream to deliver its session's end. */
export async function streamsEnded(streams: SessionStream[], ms = 30_000): Promise<void> {
  for (const s of streams) {
    await within(s.reading, ms, `the stream of ${s.sessionId} to deliver its end`, () => `; saw ${s.seen.length} events, the last ${s.seen.at(-1)}`);
  }
}

/** Each stream was given every event up to its session's end exactly once, in order: no gap, no duplicate. */
export function expectWholeStreams(audit: FaultAudit, streams: SessionStream[]): void {
  for (const s of streams) {
    const end = audit.events.get(s.sessionId)!.find((e) => e.type === "session.status" && e.data.status === "ended")!;
    expect(s.seen, s.sessionId).toEqual(Array.from({ length: end.seq }, (_, i) => i + 1));
  }
}
