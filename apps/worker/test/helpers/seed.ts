import { createSession, enqueue, type Db } from "@handoff/db";

const LIMITS = { maxPayloadBytes: 256 * 1024 };

/** Creates `n` interactive sessions, `parallel` at a time. */
export async function createSessions(db: Db, n: number, parallel = 8): Promise<string[]> {
  const ids: string[] = [];
  await inBatches(Array.from({ length: n }, (_, i) => i), parallel, async () => {
    ids.push((await createSession(db, { mode: "interactive" })).sessionId);
  });
  return ids;
}

/** Enqueues one prompt per session, `parallel` at a time; returns the message ids. */
export async function enqueueOneEach(db: Db, sessionIds: readonly string[], round: number, parallel = 8): Promise<string[]> {
  const ids: string[] = [];
  await inBatches(sessionIds, parallel, async (sessionId) => {
    const { messageId } = await enqueue(db, { sessionId, kind: "prompt", payload: { text: `round ${round}` } }, LIMITS);
    ids.push(messageId);
  });
  return ids;
}

async function inBatches<T>(items: readonly T[], parallel: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}
