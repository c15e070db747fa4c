import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { todoStatus } from "./enums";
import { sessions } from "./sessions";

/** The per-agent todo ledger: `todo_write` replaces an agent's rows. */
export const todos = pgTable(
  "todos",
  {
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    agentId: text().notNull(),
    id: text().notNull(),
    content: text().notNull(),
    status: todoStatus().notNull(),
    position: integer().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "todos_agent_item_pk", columns: [t.agentId, t.id] })],
);
