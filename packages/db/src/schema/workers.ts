import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const workers = pgTable("workers", {
  id: text().primaryKey(),
  host: text().notNull(),
  pid: integer().notNull(),
  concurrency: integer().notNull().default(1),
  startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  /** Set when the worker began draining (SIGTERM): it claims nothing more. */
  drainingAt: timestamp({ withTimezone: true }),
  stoppedAt: timestamp({ withTimezone: true }),
  /** The worker's own counters and histograms (prom-client JSON), refreshed with each heartbeat. */
  metrics: jsonb(),
});
