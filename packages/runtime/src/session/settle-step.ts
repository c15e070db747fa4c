import type { ModelResponse } from "../models/call-model";
import type { ToolDefinition } from "../tools/define-tool";
import type { ToolContext } from "../tools/tool-context";
import type { AgentRow } from "./agent-row";
import type { Stop } from "./end-agent";
import { sqlPart } from "@handoff/db";
import { insertMessages } from "./history";
import { nudgeText } from "./nudge";
import { runToolBatch } from "./tool-batch";
import type { TurnContext } from "./turn-context";
import type { TurnWriter } from "./turn-writer";

export interface SettleInput {
  stepId: string;
  response: ModelResponse;
  capped: boolean;
  offered: ToolDefinition[];
  toolCtx: ToolContext;
  nudgesUsed: number;
  nudgeBudget: number;
  /** The agent's last non-blank text in this turn, before this step. */
  lastText: string | null;
  /** Settling a step again after a crash: some of its tool calls may be recorded. */
  recovering: boolean;
}

/**
 * What follows from one step's response (C1, C2, C4): run its tools; then stop with a
 * reason, or nudge a returning agent that did not reply, or go on to the next step.
 * Returns the stop, or null to continue. Everything it decides is recorded before it
 * returns, so a recovered worker does not decide twice; a step that simply continues is
 * marked settled with the next step's start (settling it again after a crash repeats no work).
 */
export async function settleStep(t: TurnContext, agent: AgentRow, writer: TurnWriter, s: SettleInput): Promise<Stop | null> {
  const { response } = s;
  const text = response.text;
  const lastText = text.trim() ? text : s.lastText;
  const raw = response.rawFinishReason;
  if (response.finishReason === "length") return { reason: "max_tokens", rawFinishReason: raw, finalText: text, partialText: lastText };
  if (response.finishReason === "content-filter") return { reason: "refusal", rawFinishReason: raw, finalText: text, partialText: lastText };

  let replyRejected = false;
  if (response.toolCalls.length > 0) {
    const results = await runToolBatch(t, agent, s.stepId, response.toolCalls, s.offered, s.toolCtx, writer, {
      recovering: s.recovering,
    });
    const reply = results.find((r) => r.name === "reply" && !r.isError);
    if (reply) return { reason: "reply", rawFinishReason: raw, replyValue: (reply.input as { value: unknown }).value };
    replyRejected = results.some((r) => r.name === "reply" && r.isError);
    if (s.capped) return { reason: "step_cap", rawFinishReason: raw, finalText: text, partialText: lastText };
    if (!replyRejected) {
      writer.state.unsettledStepId = s.stepId;
      return null;
    }
  } else if (!agent.returning) {
    return { reason: s.capped ? "step_cap" : "end_turn", rawFinishReason: raw, finalText: text };
  } else if (s.capped) {
    // At the cap only reply was offered: a text answer is not a reply.
    return { reason: "step_cap", rawFinishReason: raw, partialText: lastText };
  }

  // A returning agent ended its step without an accepted reply.
  if (s.nudgesUsed >= s.nudgeBudget) {
    return { reason: "no_reply", rawFinishReason: raw, detail: `no reply after ${s.nudgeBudget} reminder(s)`, partialText: lastText };
  }
  const at = { sessionId: agent.sessionId, agentId: agent.id, turnId: t.turnId };
  const nudge = insertMessages(at, [{ role: "user", content: nudgeText(replyRejected) }]);
  // The step's end updates the same step and turn rows: one statement must not update a row twice.
  await writer.flush();
  await writer.write({
    writes: [
      sqlPart`UPDATE turns t SET nudges = t.nudges + 1 FROM fence WHERE t.id = ${t.turnId}::text`,
      sqlPart`UPDATE model_steps s SET status = 'settled' FROM fence WHERE s.id = ${s.stepId}::text`,
      nudge.write,
    ],
    events: [
      {
        type: "agent.nudge",
        ...at,
        data: { nudge: s.nudgesUsed + 1, budget: s.nudgeBudget, reason: replyRejected ? "reply_rejected" : "no_reply" },
      },
    ],
    after: (state) => {
      state.nudges++;
      state.history.push(...nudge.stored);
    },
  });
  return null;
}
