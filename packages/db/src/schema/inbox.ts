import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { inboxKind, inboxState } from "./enums";
import { sessions } from "./sessions";

/** The durable per-session inbox. `id` is the messageId handed to callers. */
export const inboxMessages = pgTable(
  "inbox_messages",
  {
    id: text().primaryKey(),
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    /** Arrival order: admission takes queued messages by this. */
    arrival: bigint({ mode: "number" }).generatedAlwaysAsIdentity(),
    /** `null` targets the session's root agent. */
    targetAgentId: text(),
    kind: inboxKind().notNull(),
    payload: jsonb().notNull(),
    state: inboxState().notNull().default("queued"),
    admittedTurnId: text(),
    idempotencyKey: text(),
    queuedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    admittedAt: timestamp({ withTimezone: true }),
    cancelledAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("inbox_idempotency_uq").on(t.sessionId, t.idempotencyKey),
    index("inbox_queued_idx").on(t.sessionId, t.arrival).where(sql`state = 'queued'`),
  ],
);
