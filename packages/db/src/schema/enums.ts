import { pgEnum } from "drizzle-orm/pg-core";

export const sessionMode = pgEnum("session_mode", ["interactive", "headless"]);

/** Whole-session status: `idle` (nothing running, nothing admissible), `running`, `ended` (a headless run returned or failed), `cancelled`. */
export const sessionStatus = pgEnum("session_status", ["idle", "running", "ended", "cancelled"]);

export const agentStatus = pgEnum("agent_status", [
  "pending",
  "running",
  "idle",
  "done",
  "failed",
  "cancelled",
]);

export const inboxKind = pgEnum("inbox_kind", [
  "prompt",
  "followup",
  "steer",
  "context",
  "child_result",
  "resume",
]);

export const inboxState = pgEnum("inbox_state", ["queued", "admitted", "cancelled"]);

/** C4 stop reasons. */
export const stopReason = pgEnum("stop_reason", [
  "reply",
  "end_turn",
  "max_tokens",
  "step_cap",
  "no_reply",
  "error",
  "cancelled",
  "refusal",
]);

export const verdict = pgEnum("verdict", ["COMPLETE", "INCOMPLETE", "UNVERIFIABLE"]);

export const turnStatus = pgEnum("turn_status", ["running", "ended"]);

export const todoStatus = pgEnum("todo_status", ["pending", "in_progress", "completed", "cancelled"]);
