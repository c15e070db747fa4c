import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { sessions } from "./sessions";

/**
 * The webhook outbox: a delivery is written in the same transaction as the fact it reports
 * (a subagent's start or stop, a root's stop), then sent, retried with backoff, and kept.
 */
export const hookDeliveries = pgTable(
  "hook_deliveries",
  {
    id: text().primaryKey(),
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    agentId: text().notNull(),
    /** `SubagentStart`, `SubagentStop` or `Stop`. */
    event: text().notNull(),
    url: text().notNull(),
    payload: jsonb().notNull(),
    status: text({ enum: ["pending", "delivered", "failed"] }).notNull().default("pending"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastStatusCode: integer(),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("hook_deliveries_due_idx").on(t.status, t.nextAttemptAt), index("hook_deliveries_session_idx").on(t.sessionId)],
);

/** Every attempt to deliver a hook, for operators. */
export const hookAttempts = pgTable(
  "hook_attempts",
  {
    id: text().primaryKey(),
    deliveryId: text()
      .notNull()
      .references(() => hookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer().notNull(),
    statusCode: integer(),
    error: text(),
    durationMs: integer().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("hook_attempts_delivery_idx").on(t.deliveryId)],
);
