import type { Sql, Tx } from "../client";
import type { StoredEvent } from "./event";

/** Events of a session after `afterSeq`, in order, at most `limit`. */
export async function readEvents(
  sql: Sql | Tx,
  sessionId: string,
  afterSeq = 0,
  limit = 1000,
): Promise<StoredEvent[]> {
  return sql<StoredEvent[]>`
    SELECT session_id AS "sessionId", seq, type, agent_id AS "agentId", turn_id AS "turnId", data,
           created_at AS "createdAt"
    FROM events
    WHERE session_id = ${sessionId} AND seq > ${afterSeq}
    ORDER BY seq
    LIMIT ${limit}`;
}
