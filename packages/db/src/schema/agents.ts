import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { agentStatus, stopReason, verdict } from "./enums";
import { sessions } from "./sessions";

/** One model-driven loop. Its `id` is the agent instance id. Stop facts are C4's. */
export const agents = pgTable(
  "agents",
  {
    id: text().primaryKey(),
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    parentId: text(),
    profile: text().notNull(),
    model: text(),
    /** Per-agent overrides chosen at creation (`baseUrl`, `maxSteps`), e.g. by \`handoff run\` flags. */
    config: jsonb().notNull().default({}),
    /** `!(isRoot && interactive)`, computed once at creation (C1). */
    returning: boolean().notNull(),
    depth: integer().notNull().default(0),
    /** The parent's tool call that spawned this agent (\`<stepId>:<callId>\`): a re-run call finds it instead of spawning twice. */
    spawnedBy: text(),
    /** Spawned with \`background: true\`: its result goes to the parent's inbox. */
    background: boolean().notNull().default(false),
    status: agentStatus().notNull().default("pending"),
    stopReason: stopReason(),
    stopDetail: text(),
    rawFinishReason: text(),
    failureTag: text(),
    finalMessagePresent: boolean(),
    /** Set by the first `todo_write`: an empty ledger is "present and clean", not absent. */
    ledgerKept: boolean().notNull().default(false),
    /** `null` when the agent never kept a ledger. */
    openTodoCount: integer(),
    verdict: verdict(),
    verdictRule: text(),
    replyValue: jsonb(),
    partialText: text(),
    modelSteps: integer().notNull().default(0),
    inputTokens: bigint({ mode: "number" }).notNull().default(0),
    outputTokens: bigint({ mode: "number" }).notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("agents_session_idx").on(t.sessionId, t.createdAt),
    index("agents_parent_idx").on(t.parentId),
    uniqueIndex("agents_spawned_by_uq").on(t.spawnedBy),
  ],
);
