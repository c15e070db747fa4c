import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sessions } from "./sessions";

/** One request to the model (C2 counts these). `request` is what was sent, for the inspector. */
export const modelSteps = pgTable(
  "model_steps",
  {
    id: text().primaryKey(),
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    agentId: text().notNull(),
    turnId: text().notNull(),
    /** 1-based number of this request within the agent's current step budget. */
    number: integer().notNull(),
    /**
     * `running` until the response is recorded (`ended`); `settled` once what follows from it
     * (tool results, a nudge, the agent's end) is recorded too. After a crash a running step is
     * `abandoned` and redone, and an ended one is settled again without repeating recorded work.
     */
    status: text({ enum: ["running", "ended", "settled", "failed", "abandoned"] }).notNull().default("running"),
    /** True on the last allowed request, which carries the cap instruction. */
    capped: boolean().notNull().default(false),
    request: jsonb(),
    responseText: text(),
    finishReason: text(),
    rawFinishReason: text(),
    inputTokens: bigint({ mode: "number" }).notNull().default(0),
    outputTokens: bigint({ mode: "number" }).notNull().default(0),
    retries: integer().notNull().default(0),
    error: text(),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("model_steps_agent_idx").on(t.agentId, t.startedAt)],
);

/** The agent's conversation history, in order: what the next model request is built from. */
export const agentMessages = pgTable(
  "agent_messages",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    agentId: text().notNull(),
    turnId: text(),
    stepId: text(),
    role: text({ enum: ["system", "user", "assistant", "tool"] }).notNull(),
    /** An AI SDK ModelMessage. */
    content: jsonb().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("agent_messages_agent_idx").on(t.agentId, t.id)],
);

/** Tool calls and their results. A call with a recorded result is never run again. */
export const toolCalls = pgTable(
  "tool_calls",
  {
    id: text().primaryKey(),
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    agentId: text().notNull(),
    turnId: text().notNull(),
    stepId: text().notNull(),
    /** The id the model gave the call. */
    callId: text().notNull(),
    name: text().notNull(),
    args: jsonb(),
    status: text({ enum: ["running", "done"] }).notNull().default("running"),
    result: jsonb(),
    isError: boolean().notNull().default(false),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex("tool_calls_step_call_uq").on(t.stepId, t.callId), index("tool_calls_agent_idx").on(t.agentId)],
);
