import { bigint, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { sessionMode, sessionStatus } from "./enums";

export const sessions = pgTable(
  "sessions",
  {
    id: text().primaryKey(),
    /** The tenant: a token sees only its workspace's sessions. */
    workspaceId: text().notNull().default("default"),
    mode: sessionMode().notNull(),
    title: text(),
    status: sessionStatus().notNull().default("idle"),
    /** Profile of the root agent, chosen at creation. */
    profile: text().notNull().default("general"),
    rootAgentId: text(),
    /** Last event sequence number handed out; events take `last_seq + 1` under this row's lock. */
    lastSeq: bigint({ mode: "number" }).notNull().default(0),
    leaseOwner: text(),
    /** Fencing token: bumped by every claim; writes on behalf of the session check it. */
    leaseEpoch: bigint({ mode: "number" }).notNull().default(0),
    leaseExpiresAt: timestamp({ withTimezone: true }),
    /** Set by a whole-session cancel: running turns that started before it are aborted. */
    cancelRequestedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("sessions_status_idx").on(t.status, t.createdAt),
    index("sessions_workspace_idx").on(t.workspaceId, t.createdAt),
    index("sessions_lease_idx").on(t.leaseExpiresAt),
  ],
);
