import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { sessions } from "./sessions";

/** The session's append-only log. `seq` is 1, 2, 3, … per session with no gaps. */
export const events = pgTable(
  "events",
  {
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    seq: bigint({ mode: "number" }).notNull(),
    agentId: text(),
    turnId: text(),
    type: text().notNull(),
    data: jsonb().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "events_session_seq_pk", columns: [t.sessionId, t.seq] }),
    // The ops view's per-minute charts read recent events across sessions; also the way to partition by time later.
    index("events_created_at_idx").on(t.createdAt),
  ],
);
