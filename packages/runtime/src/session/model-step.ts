import { appendEvents, fencedTransaction, newId, redact } from "@handoff/db";
import type { LanguageModel, ModelMessage } from "ai";
import { callModel, type ModelResponse } from "../models/call-model";
import { withRetry } from "../models/with-retry";
import type { ToolDefinition } from "../tools/define-tool";
import type { AgentRow } from "./agent-row";
import { appendMessages } from "./history";
import type { TurnContext } from "./turn-context";
import { TextCoalescer } from "./text-coalescer";

export interface StepRequest {
  number: number;
  capped: boolean;
  system: string;
  messages: ModelMessage[];
  tools: ToolDefinition[];
  toolChoiceNone: boolean;
}

export type StepOutcome = { stepId: string; response: ModelResponse } | { stepId: string; error: Error };

/**
 * One model step, durably: the step is recorded as running before the request, its text
 * streams out as coalesced `text.delta` events, and the response (assistant message, usage,
 * counters) is recorded in one fenced transaction. Transient failures are retried inside
 * the step; a retry is not a step.
 */
export async function runModelStep(
  t: TurnContext,
  agent: AgentRow,
  model: LanguageModel,
  request: StepRequest,
): Promise<StepOutcome> {
  const { db, lease } = t.ctx;
  const stepId = newId("stp");
  const at = { sessionId: agent.sessionId, agentId: agent.id, turnId: t.turnId };
  await fencedTransaction(db, lease, async (tx) => {
    await tx`
      INSERT INTO model_steps (id, session_id, agent_id, turn_id, number, capped, request)
      VALUES (${stepId}, ${agent.sessionId}, ${agent.id}, ${t.turnId}, ${request.number}, ${request.capped},
              ${redact(
                JSON.stringify({
                  system: request.system,
                  messages: request.messages,
                  tools: request.tools.map((tool) => tool.id),
                  toolChoice: request.toolChoiceNone ? "none" : request.tools.length > 0 ? "auto" : null,
                }),
              )}::text::jsonb)`;
    await appendEvents(tx, agent.sessionId, [
      {
        type: "model-step.start",
        ...at,
        data: { stepId, number: request.number, capped: request.capped, tools: request.tools.map((tool) => tool.id) },
      },
    ]);
  });

  const started = performance.now();
  const deltas = new TextCoalescer((text) =>
    fencedTransaction(db, lease, (tx) =>
      appendEvents(tx, agent.sessionId, [{ type: "text.delta", ...at, data: { stepId, text } }]),
    ).then(() => undefined),
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
        await fencedTransaction(db, lease, async (tx) => {
          await tx`UPDATE model_steps SET retries = ${attempt} WHERE id = ${stepId}`;
          await appendEvents(tx, agent.sessionId, [
            { type: "model-step.retry", ...at, data: { stepId, attempt, reason: why.reason, delayMs } },
          ]);
        });
      },
    );
    await deltas.close();
  } catch (e) {
    await deltas.close().catch(() => {});
    if (t.ctx.signal.aborted) throw e;
    const error = e instanceof Error ? e : new Error(String(e));
    await fencedTransaction(db, lease, async (tx) => {
      await tx`UPDATE model_steps SET status = 'failed', error = ${error.message}, ended_at = now() WHERE id = ${stepId}`;
      await appendEvents(tx, agent.sessionId, [
        { type: "model-step.end", ...at, data: { stepId, number: request.number, error: error.message } },
      ]);
    });
    return { stepId, error };
  }
  t.ctx.observeStep((performance.now() - started) / 1000);

  await fencedTransaction(db, lease, async (tx) => {
    await tx`
      UPDATE model_steps SET status = 'ended', response_text = ${redact(response.text)}, finish_reason = ${response.finishReason},
        raw_finish_reason = ${response.rawFinishReason}, input_tokens = ${response.usage.input},
        output_tokens = ${response.usage.output}, ended_at = now()
      WHERE id = ${stepId}`;
    await tx`UPDATE turns SET model_steps = model_steps + 1 WHERE id = ${t.turnId}`;
    await tx`
      UPDATE agents SET model_steps = model_steps + 1, input_tokens = input_tokens + ${response.usage.input},
        output_tokens = output_tokens + ${response.usage.output}
      WHERE id = ${agent.id}`;
    await appendMessages(tx, { ...at, stepId }, [assistantMessage(response)]);
    await appendEvents(tx, agent.sessionId, [
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
    ]);
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
