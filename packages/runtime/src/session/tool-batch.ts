import { appendEvents, fencedTransaction, isHandoffError, newId, redact, redactJson } from "@handoff/db";
import type { ModelMessage } from "ai";
import type { CalledTool } from "../models/call-model";
import type { ToolDefinition, ToolResult } from "../tools/define-tool";
import type { ToolContext } from "../tools/tool-context";
import type { AgentRow } from "./agent-row";
import { appendMessages } from "./history";
import { StopDriving } from "./stop-driving";
import type { TurnContext } from "./turn-context";

export interface BatchResult extends ToolResult {
  callId: string;
  name: string;
  input: unknown;
}

/**
 * Runs a step's tool calls. A call whose result is already recorded (a worker died
 * after it) is not run again; its recorded result is used. Calls the model could not make
 * properly (bad JSON, a tool it was not offered) get an error result it can act on.
 */
export async function runToolBatch(
  t: TurnContext,
  agent: AgentRow,
  stepId: string,
  calls: CalledTool[],
  offered: ToolDefinition[],
  toolCtx: ToolContext,
): Promise<BatchResult[]> {
  const { db, lease } = t.ctx;
  const at = { sessionId: agent.sessionId, agentId: agent.id, turnId: t.turnId };
  const recorded = new Map(
    (
      await db.sql<{ callId: string; result: ToolResult["output"]; isError: boolean }[]>`
        SELECT call_id AS "callId", result, is_error AS "isError" FROM tool_calls WHERE step_id = ${stepId} AND status = 'done'`
    ).map((r) => [r.callId, r]),
  );
  const runCall = async (call: CalledTool): Promise<BatchResult> => {
    const done = recorded.get(call.callId);
    if (done) return { callId: call.callId, name: call.name, input: call.input, output: done.result, isError: done.isError };
    if (t.ctx.signal.aborted) throw t.ctx.signal.reason;
    const id = newId("tc");
    await fencedTransaction(db, lease, async (tx) => {
      await tx`
        INSERT INTO tool_calls (id, session_id, agent_id, turn_id, step_id, call_id, name, args)
        VALUES (${id}, ${agent.sessionId}, ${agent.id}, ${t.turnId}, ${stepId}, ${call.callId}, ${call.name},
                ${redact(JSON.stringify(call.input ?? null))}::text::jsonb)
        ON CONFLICT (step_id, call_id) DO NOTHING`;
      await appendEvents(tx, agent.sessionId, [
        { type: "tool-call.start", ...at, data: { stepId, callId: call.callId, name: call.name, args: call.input ?? null } },
      ]);
    });
    const ran = await runOne(call, offered, { ...toolCtx, call: { stepId, callId: call.callId } });
    // What the model and the transcript see is redacted: a tool may read a file holding a key.
    const result = { ...ran, output: redactJson(ran.output) };
    await fencedTransaction(db, lease, async (tx) => {
      await tx`
        UPDATE tool_calls SET status = 'done', result = ${JSON.stringify(result.output)}::text::jsonb,
          is_error = ${result.isError}, ended_at = now()
        WHERE step_id = ${stepId} AND call_id = ${call.callId}`;
      await appendMessages(tx, { ...at, stepId }, [toolMessage(call, result)]);
      await appendEvents(tx, agent.sessionId, [
        {
          type: "tool-call.end",
          ...at,
          data: { stepId, callId: call.callId, name: call.name, isError: result.isError, output: result.output },
        },
      ]);
    });
    return { callId: call.callId, name: call.name, input: call.input, ...result };
  };

  // Calls run in order, except that consecutive `task` calls run side by side (parallel subagents).
  const results: BatchResult[] = [];
  for (let i = 0; i < calls.length; ) {
    let j = i + 1;
    if (calls[i]!.name === "task") while (j < calls.length && calls[j]!.name === "task") j++;
    results.push(...(await Promise.all(calls.slice(i, j).map(runCall))));
    i = j;
  }
  return results;
}

async function runOne(call: CalledTool, offered: ToolDefinition[], ctx: ToolContext): Promise<ToolResult> {
  const tool = offered.find((d) => d.id === call.name);
  if (call.invalid && tool) {
    return { output: `The call to ${call.name} could not be used: ${call.invalid}. Call it again with valid JSON arguments.`, isError: true };
  }
  if (!tool) {
    const names = offered.map((d) => d.id).join(", ") || "none";
    return { output: `Tool "${call.name}" is not available to you here. Available tools: ${names}.`, isError: true };
  }
  try {
    return await tool.run(call.input, ctx);
  } catch (e) {
    // Losing the lease is not the model's problem to fix: stop driving.
    if (ctx.signal.aborted || isHandoffError(e, "FENCED") || e instanceof StopDriving) throw e;
    return { output: `${call.name} failed unexpectedly: ${(e as Error).message}`, isError: true };
  }
}

function toolMessage(call: CalledTool, result: ToolResult): ModelMessage {
  const output = result.isError
    ? { type: "error-text" as const, value: typeof result.output === "string" ? result.output : JSON.stringify(result.output) }
    : typeof result.output === "string"
      ? { type: "text" as const, value: result.output }
      : { type: "json" as const, value: result.output as never };
  return { role: "tool", content: [{ type: "tool-result", toolCallId: call.callId, toolName: call.name, output }] };
}
