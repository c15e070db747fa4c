import { isHandoffError, newId, redact, redactJson, sqlPart } from "@handoff/db";
import type { ModelMessage } from "ai";
import type { CalledTool } from "../models/call-model";
import type { ToolDefinition, ToolResult } from "../tools/define-tool";
import type { ToolContext } from "../tools/tool-context";
import type { AgentRow } from "./agent-row";
import { insertMessages } from "./history";
import { StopDriving } from "./stop-driving";
import type { TurnContext } from "./turn-context";
import type { TurnWriter, WritePart } from "./turn-writer";

export interface BatchResult extends ToolResult {
  callId: string;
  name: string;
  input: unknown;
}

/**
 * Runs a step's tool calls. A call whose result is already recorded (a worker died
 * after it) is not run again; its recorded result is used. A call's start is written before
 * it runs; its result is deferred to the turn's next write (see TurnWriter). Calls the model could not make
 * properly (bad JSON, a tool it was not offered) get an error result it can act on.
 */
export async function runToolBatch(
  t: TurnContext,
  agent: AgentRow,
  stepId: string,
  calls: CalledTool[],
  offered: ToolDefinition[],
  toolCtx: ToolContext,
  writer: TurnWriter,
  options: { recovering: boolean },
): Promise<BatchResult[]> {
  const { sql } = t.ctx.db;
  const at = { sessionId: agent.sessionId, agentId: agent.id, turnId: t.turnId };
  // Only a step settled again after a crash can have recorded results: a fresh one has none.
  const recorded = new Map(
    options.recovering
      ? (
          await sql<{ callId: string; result: ToolResult["output"]; isError: boolean }[]>`
            SELECT call_id AS "callId", result, is_error AS "isError" FROM tool_calls WHERE step_id = ${stepId} AND status = 'done'`
        ).map((r) => [r.callId, r])
      : [],
  );
  const runCall = async (call: CalledTool, alone: boolean): Promise<BatchResult> => {
    const done = recorded.get(call.callId);
    if (done) return { callId: call.callId, name: call.name, input: call.input, output: done.result, isError: done.isError };
    if (t.ctx.signal.aborted) {
      await writer.flush();
      throw t.ctx.signal.reason;
    }
    const id = newId("tc");
    // Carries the step's end when this is its first call (see runModelStep), or the call before's result.
    await writer.write({
      writes: [
        sqlPart`
          INSERT INTO tool_calls (id, session_id, agent_id, turn_id, step_id, call_id, name, args)
          SELECT ${id}::text, ${agent.sessionId}::text, ${agent.id}::text, ${t.turnId}::text, ${stepId}::text, ${call.callId}::text,
                 ${call.name}::text, ${redact(JSON.stringify(call.input ?? null))}::text::jsonb
          FROM fence
          ON CONFLICT (step_id, call_id) DO NOTHING`,
      ],
      events: [{ type: "tool-call.start", ...at, data: { stepId, callId: call.callId, name: call.name, args: call.input ?? null } }],
    });
    const ran = await runOne(call, offered, { ...toolCtx, call: { stepId, callId: call.callId } });
    // What the model and the transcript see is redacted: a tool may read a file holding a key.
    const result = { ...ran, output: redactJson(ran.output) };
    const message = insertMessages({ ...at, stepId }, [toolMessage(call, result)]);
    const end: WritePart = {
      writes: [
        sqlPart`
          UPDATE tool_calls c SET status = 'done', result = ${JSON.stringify(result.output)}::text::jsonb,
            is_error = ${result.isError}::boolean, ended_at = now()
          FROM fence WHERE c.step_id = ${stepId}::text AND c.call_id = ${call.callId}::text`,
        message.write,
      ],
      events: [
        {
          type: "tool-call.end",
          ...at,
          data: { stepId, callId: call.callId, name: call.name, isError: result.isError, output: result.output },
        },
      ],
      after: (state) => void state.history.push(...message.stored),
    };
    // Run alone, the result rides with the next write (the next call's start, the next step's
    // start, or the flush before the agent ends or stops): nothing runs in between. Side by side,
    // the others may run long: it is recorded now.
    if (alone) writer.defer(end);
    else await writer.write(end);
    return { callId: call.callId, name: call.name, input: call.input, ...result };
  };

  // Calls run in order, except that consecutive `task` calls run side by side (parallel subagents).
  const results: BatchResult[] = [];
  for (let i = 0; i < calls.length; ) {
    let j = i + 1;
    if (calls[i]!.name === "task") while (j < calls.length && calls[j]!.name === "task") j++;
    // Side by side, no call's start may carry the step's end ahead of the others' starts.
    if (j - i > 1) await writer.flush();
    results.push(...(await Promise.all(calls.slice(i, j).map((call) => runCall(call, j - i === 1)))));
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
