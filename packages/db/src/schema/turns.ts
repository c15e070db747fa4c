import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { stopReason, turnStatus } from "./enums";
import { sessions } from "./sessions";

/** From admission of inbox messages until the agent stops. */
export const turns = pgTable(
  "turns",
  {
    id: text().primaryKey(),
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    agentId: text().notNull(),
    status: turnStatus().notNull().default("running"),
    stopReason: stopReason(),
    /** Model requests made in this turn: C2's step cap counts these. */
    modelSteps: integer().notNull().default(0),
    /** Reminders sent to a returning agent that ended a step without a reply (C1's nudge budget). */
    nudges: integer().notNull().default(0),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("turns_session_idx").on(t.sessionId, t.startedAt), index("turns_agent_idx").on(t.agentId)],
);
