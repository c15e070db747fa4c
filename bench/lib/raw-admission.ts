import { INBOX_CHANNEL, type Db } from "@handoff/db";

/**
 * The admission benchmark's physical limit: the inbox row and its NOTIFY, one simple-protocol
 * round trip, one commit — what a prompt must cost at the least. Ids are ULIDs and the text is
 * the benchmark's own, so quoting them inline is safe.
 */
export function rawAdmission(db: Db, messageId: string, sessionId: string, text: string): Promise<unknown> {
  return db.sql
    .unsafe(
      `INSERT INTO inbox_messages (id, session_id, kind, payload)
       VALUES ('${messageId}', '${sessionId}', 'prompt', '${JSON.stringify({ text })}');
       SELECT pg_notify('${INBOX_CHANNEL}', '${sessionId}')`,
    )
    .simple();
}
