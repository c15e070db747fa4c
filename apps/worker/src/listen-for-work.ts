import { INBOX_CHANNEL, type Db } from "@handoff/db";

/**
 * One LISTEN connection per worker on the inbox channel: an enqueue (or a draining worker's
 * release) wakes the claim loop at once. postgres-js re-listens after a lost connection and
 * calls `onWork` again then, since notifications sent meanwhile were missed.
 */
export async function listenForWork(db: Db, onWork: () => void): Promise<{ close(): Promise<void> }> {
  const listener = await db.sql.listen(INBOX_CHANNEL, () => onWork(), onWork);
  return { close: () => listener.unlisten().then(() => {}) };
}
