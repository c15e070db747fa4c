import type { Db, Tx } from "../client";
import { HandoffError } from "../errors";
import type { Lease } from "./lease";

/**
 * Runs `fn` in a transaction that first checks, and row-locks, the session at the lease's
 * epoch. A worker whose lease was taken over gets FENCED before it writes anything; while
 * the transaction runs, the row lock keeps a claim from bumping the epoch underneath it.
 */
export async function fencedTransaction<T>(db: Db, lease: Lease, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.sql.begin(async (tx) => {
    const held = await tx`
      SELECT 1 FROM sessions WHERE id = ${lease.sessionId} AND lease_epoch = ${lease.epoch}::bigint FOR UPDATE`;
    if (held.length === 0) {
      throw new HandoffError(
        "FENCED",
        `write refused: worker ${lease.workerId} no longer holds session ${lease.sessionId} at epoch ${lease.epoch}`,
        { ...lease },
      );
    }
    return fn(tx);
  }) as Promise<T>;
}
