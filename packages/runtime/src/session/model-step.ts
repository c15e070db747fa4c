import { appendEvents, newId, redact, sqlPart } from "@handoff/db";
import type { LanguageModel, ModelMessage } from "ai";
import { callModel, type ModelResponse } from "../models/call-model";
import { withRetry } from "../models/with-retry";
import type { ToolDefinition } from "../tools/define-tool";
import type { AgentRow } from "./agent-row";
import { insertMessages } from "./history";
import type { StoredRequest } from "./step-request";
import type { TurnContext } from "./turn-context";
import { TextCoalescer } from "./text-coalescer";
import type { TurnWriter } from "./turn-writer";

export interface StepRequest {
  number: number;
  capped: boolean;
  system: string;
  messages: ModelMessage[];
  tools: ToolDefinition[];
  toolChoiceNone: boolean;
  /** What `model_steps.request` records. */
  stored: StoredRequest;
}

export type StepOutcome = { stepId: string; response: ModelResponse } | { stepId: string; error: Error };

/**
 * One model step, durably: the step is recorded as running before the request (marking the
 * step before it settled), its text streams out as coalesced `text.delta` events, and the
 * response (assistant message, usage, counters) is recorded in one fenced write. That write
 * is deferred to ride with the next one — the first tool call's start, a nudge, or the
 * agent's end — since nothing happens in between; until then the step counts as in flight.
 * Transient failures are retried inside the step; a retry is not a step.
 */
export async function runModelStep(
  t: TurnContext,
  agent: AgentRow,
  model: LanguageModel,
  request: StepRequest,
  writer: TurnWriter,
): Promise<StepOutcome> {
  const { db, lease } = t.ctx;
  const stepId = newId("stp");
  const at = { sessionId: agent.sessionId, agentId: agent.id, turnId: t.turnId };
  const settle = writer.state.unsettledStepId;
  await writer.write({
    writes: [
      ...(settle ? [sqlPart`UPDATE model_steps s SET status = 'settled' FROM fence WHERE s.id = ${settle}::text AND s.status = 'ended'`] : []),
      sqlPart`
        INSERT INTO model_steps (id, session_id, agent_id, turn_id, number, capped, request)
        SELECT ${stepId}::text, ${agent.sessionId}::text, ${agent.id}::text, ${t.turnId}::text, ${request.number}::int,
               ${request.capped}::boolean, ${redact(JSON.stringify(request.stored))}::text::jsonb
        FROM fence`,
    ],
    events: [
      {
        type: "model-step.start",
        ...at,
        data: { stepId, number: request.number, capped: request.capped, tools: request.stored.tools },
      },
    ],
    after: (state) => {
      if (state.unsettledStepId === settle) state.unsettledStepId = null;
    },
  });

  const started = performance.now();
  const deltas = new TextCoalescer((text) =>
    appendEvents(db.sql, agent.sessionId, [{ type: "text.delta", ...at, data: { stepId, text } }], { epoch: lease.epoch }).then(
      () => undefined,
    ),
  );
  let response: ModelResponse;
  try {
    response = await withRetry(
      () =>
        callModel({
          model,
          system: request.system,
          messages: request.messages,
          tools: request.tools,
          toolChoiceNone: request.toolChoiceNone,
          headers: { "x-handoff-session": agent.sessionId, "x-handoff-agent": agent.id, "x-handoff-profile": agent.profile },
          signal: t.ctx.signal,
          timeoutMs: t.rt.env.HANDOFF_MODEL_TIMEOUT_MS,
          onTextDelta: (text) => deltas.push(text),
        }),
      { maxRetries: t.rt.env.HANDOFF_MODEL_MAX_RETRIES, baseDelayMs: t.rt.retryBaseDelayMs },
      t.ctx.signal,
      async (attempt, why, delayMs) => {
        // Fix (fault tests): a cut attempt's buffered deltas go out before the retry event, not after it.
        await deltas.flush();
        await writer.write({
          writes: [sqlPart`UPDATE model_steps s SET retries = ${attempt}::int FROM fence WHERE s.id = ${stepId}::text`],
          events: [{ type: "model-step.retry", ...at, data: { stepId, attempt, reason: why.reason, delayMs } }],
        });
      },
    );
    await deltas.close();
  } catch (e) {
    await deltas.close().catch(() => {});
    if (t.ctx.signal.aborted) throw e;
    const error = e instanceof Error ? e : new Error(String(e));
    await writer.write({
      writes: [
        sqlPart`UPDATE model_steps s SET status = 'failed', error = ${error.message}::text, ended_at = now() FROM fence WHERE s.id = ${stepId}::text`,
      ],
      events: [{ type: "model-step.end", ...at, data: { stepId, number: request.number, error: error.message } }],
    });
    return { stepId, error };
  }
  t.ctx.observeStep((performance.now() - started) / 1000);

  const assistant = insertMessages({ ...at, stepId }, [assistantMessage(response)]);
  writer.defer({
    writes: [
      sqlPart`
        UPDATE model_steps s SET status = 'ended', response_text = ${redact(response.text)}::text,
          finish_reason = ${response.finishReason}::text, raw_finish_reason = ${response.rawFinishReason}::text,
          input_tokens = ${response.usage.input}::bigint, output_tokens = ${response.usage.output}::bigint, ended_at = now()
        FROM fence WHERE s.id = ${stepId}::text`,
      sqlPart`UPDATE turns t SET model_steps = t.model_steps + 1 FROM fence WHERE t.id = ${t.turnId}::text`,
      sqlPart`
        UPDATE agents a SET model_steps = a.model_steps + 1, input_tokens = a.input_tokens + ${response.usage.input}::bigint,
          output_tokens = a.output_tokens + ${response.usage.output}::bigint
        FROM fence WHERE a.id = ${agent.id}::text`,
      assistant.write,
    ],
    events: [
      {
        type: "model-step.end",
        ...at,
        data: {
          stepId,
          number: request.number,
          finishReason: response.finishReason,
          rawFinishReason: response.rawFinishReason,
          usage: response.usage,
          text: response.text,
          toolCalls: response.toolCalls.map((c) => ({ callId: c.callId, name: c.name })),
        },
      },
    ],
    after: (state) => {
      state.modelSteps++;
      state.history.push(...assistant.stored);
    },
  });
  return { stepId, response };
}

export function assistantMessage(response: ModelResponse): ModelMessage {
  if (!response.text && response.toolCalls.length === 0) return { role: "assistant", content: "" };
  return {
    role: "assistant",
    content: [
      ...(response.text ? [{ type: "text" as const, text: response.text }] : []),
      ...response.toolCalls.map((c) => ({
        type: "tool-call" as const,
        toolCallId: c.callId,
        toolName: c.name,
        input: c.input,
      })),
    ],
  };
}
