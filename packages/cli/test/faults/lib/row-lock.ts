import type { Db, Tx } from "@handoff/db";
import { waitFor } from "@handoff/db/testing";

/**
 * Takes row locks in a transaction of the test's own and holds them until `release()`: a
 * worker statement that needs those rows waits inside its transaction, uncommitted, for as
 * long as the test likes.
 */
export async function holdLocks(db: Db, lock: (tx: Tx) => Promise<unknown>): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const tx = db.sql.begin(async (t) => {
    await lock(t);
    locked();
    await released;
  });
  await Promise.race([isLocked, tx]);
  return {
    async release() {
      release();
      await tx;
    },
  };
}

/** Waits until `n` worker statements matching `like` wait on a lock; returns their backend pids. */
export async function waitForLockWaits(db: Db, like: string, n: number, timeoutMs = 20_000): Promise<number[]> {
  return waitFor(
    `${n} worker statement(s) like ${like} to wait on a lock`,
    async () => {
      const rows = await db.sql<{ pid: number }[]>`
        SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'handoff-worker'
          AND wait_event_type = 'Lock' AND query LIKE ${like}`;
      return rows.length === n ? rows.map((r) => r.pid) : null;
    },
    { timeoutMs },
  );
}
