import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const workers = pgTable("workers", {
  id: text().primaryKey(),
  host: text().notNull(),
  pid: integer().notNull(),
  concurrency: integer().notNull().default(1),
  startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  stoppedAt: timestamp({ withTimezone: true }),
});
