import { mkdir } from "node:fs/promises";
import path from "node:path";
import { admit, fencedTransaction } from "@handoff/db";
import type { DriveContext } from "@handoff/worker/driver";
import type { LanguageModel } from "ai";
import type { ModelResponse } from "../models/call-model";
import type { Profile } from "../profiles/profile";
import type { ToolContext } from "../tools/tool-context";
import { subagentService } from "../subagents/subagent-service";
import { loadAgent, type AgentRow } from "./agent-row";
import type { AgentRunners } from "./agent-runners";
import { capInstruction, flattenToolHistory } from "./cap";
import { endAgent, type Stop } from "./end-agent";
import { generateTitle } from "./generate-title";
import { appendMessages, lastWrittenText, loadHistory } from "./history";
import { inboxMessageText } from "./inbox-message-text";
import { runModelStep } from "./model-step";
import { offeredTools } from "./offered-tools";
import { settleStep } from "./settle-step";
import { startTurn, type OpenTurn } from "./start-turn";
import type { Runtime, TurnContext } from "./turn-context";

export type TurnResult = "ended" | "nothing-to-do" | "stopped";

/**
 * One turn of one agent: admit, then model steps and tool batches until the agent stops
 * (C1, C2), admitting steering at each step boundary. Resumes a turn a dead worker left.
 */
export async function runTurn(rt: Runtime, ctx: DriveContext, agentId: string, runners: AgentRunners): Promise<TurnResult> {
  const agent = await loadAgent(ctx.db.sql, agentId);
  const turn = await startTurn(ctx, agent);
  if (!turn) return "nothing-to-do";
  const t: TurnContext = { rt, ctx, turnId: turn.turnId, runners };
  const scope = { db: ctx.db, lease: ctx.lease, webhooks: rt.webhooks };
  const log = ctx.log.child({ agentId: agent.id, turnId: turn.turnId });

  let profile: Profile;
  let model: LanguageModel;
  try {
    profile = rt.profiles.get(agent.profile);
    model = await rt.models.resolve(agent.model ?? profile.model ?? rt.env.HANDOFF_MODEL, { baseUrl: agent.config.baseUrl });
  } catch (e) {
    await endAgent(scope, agent, turn.turnId, { reason: "error", detail: (e as Error).message }, null);
    return "ended";
  }
  const maxSteps = agent.config.maxSteps ?? profile.maxSteps;
  const workspaceDir = path.resolve(rt.env.HANDOFF_DATA_DIR, "workspaces", agent.sessionId);
  await mkdir(workspaceDir, { recursive: true });
  const toolCtx: ToolContext = {
    db: ctx.db,
    lease: ctx.lease,
    sessionId: agent.sessionId,
    agentId: agent.id,
    turnId: turn.turnId,
    workspaceDir,
    maxOutputBytes: rt.env.HANDOFF_MAX_TOOL_OUTPUT_BYTES,
    signal: ctx.signal,
    outputSchema: profile.outputSchema,
    subagents: subagentService(t, agent),
  };
  if (agent.parentId === null && !agent.sessionTitle && turn.firstPrompt) {
    await generateTitle(t, agent, model, turn.firstPrompt);
  }

  const finish = async (stop: Stop, stepId: string | null): Promise<TurnResult> => {
    const { evidence, abandoned } = await endAgent(scope, agent, turn.turnId, stop, stepId);
    runners.abort(abandoned, "abandoned: the headless root ended");
    log.info({ stopReason: stop.reason, verdict: evidence.verdict, abandoned: abandoned.length }, "agent stopped");
    return "ended";
  };

  // After a crash: a step left running is redone; one whose response was recorded is settled again.
  if (turn.resumed) {
    const pending = await recoverSteps(t, agent);
    if (pending) {
      const history = await loadHistory(ctx.db.sql, agent.id);
      const stop = await settleStep(t, agent, {
        stepId: pending.stepId,
        response: pending.response,
        capped: pending.capped,
        offered: offeredTools(profile, agent.returning, pending.capped),
        toolCtx,
        nudgesUsed: turn.nudges,
        nudgeBudget: profile.nudgeBudget,
        lastText: lastWrittenText(history.filter((m) => m.stepId !== pending.stepId), turn.turnId),
      });
      if (stop) return finish(stop, pending.stepId);
    }
  }

  for (;;) {
    if (ctx.signal.aborted || ctx.draining.aborted) return "stopped";
    await admitSteering(ctx, agent, turn.turnId);
    const counters = await currentCounters(ctx, turn);
    const number = counters.modelSteps + 1;
    const capped = number >= maxSteps;
    const offered = offeredTools(profile, agent.returning, capped);
    const history = await loadHistory(ctx.db.sql, agent.id);
    const messages = history.map((m) => m.message);
    const request = capped
      ? {
          messages: [
            ...(agent.returning ? messages : flattenToolHistory(messages)),
            { role: "user" as const, content: capInstruction(agent.returning) },
          ],
          toolChoiceNone: !agent.returning,
        }
      : { messages, toolChoiceNone: false };
    const outcome = await runModelStep(t, agent, model, {
      number,
      capped,
      system: profile.systemPrompt,
      messages: request.messages,
      tools: offered,
      toolChoiceNone: request.toolChoiceNone,
    });
    if ("error" in outcome) {
      return finish(
        { reason: "error", detail: outcome.error.message, partialText: lastWrittenText(history, turn.turnId) },
        null,
      );
    }
    const stop = await settleStep(t, agent, {
      stepId: outcome.stepId,
      response: outcome.response,
      capped,
      offered,
      toolCtx,
      nudgesUsed: counters.nudges,
      nudgeBudget: profile.nudgeBudget,
      lastText: lastWrittenText(history, turn.turnId),
    });
    if (stop) return finish(stop, outcome.stepId);
  }
}

async function currentCounters(ctx: DriveContext, turn: OpenTurn): Promise<{ modelSteps: number; nudges: number }> {
  const [row] = await ctx.db.sql<{ modelSteps: number; nudges: number }[]>`
    SELECT model_steps AS "modelSteps", nudges FROM turns WHERE id = ${turn.turnId}`;
  return row ?? { modelSteps: turn.modelSteps, nudges: turn.nudges };
}

/** Steering, injected context and child results join the running turn at a step boundary. */
async function admitSteering(ctx: DriveContext, agent: AgentRow, turnId: string): Promise<void> {
  await admit(ctx.db, {
    sessionId: agent.sessionId,
    agentId: agent.id,
    isRoot: agent.parentId === null,
    turnId,
    kinds: ["steer", "context", "child_result"],
    epoch: ctx.lease.epoch,
    onAdmitted: async (tx, { messages }) => {
      await appendMessages(
        tx,
        { sessionId: agent.sessionId, agentId: agent.id, turnId },
        messages.map((m) => ({ role: "user" as const, content: inboxMessageText(m) })),
      );
    },
  });
}

/**
 * Marks a step that was running when its worker died as abandoned (it will be redone) and
 * returns the last step whose response was recorded but not yet settled, if any.
 */
async function recoverSteps(
  t: TurnContext,
  agent: AgentRow,
): Promise<{ stepId: string; capped: boolean; response: ModelResponse } | null> {
  const { db, lease } = t.ctx;
  await fencedTransaction(db, lease, (tx) =>
    tx`UPDATE model_steps SET status = 'abandoned', ended_at = now() WHERE turn_id = ${t.turnId} AND status = 'running'`,
  );
  const [step] = await db.sql<
    { id: string; capped: boolean; text: string | null; finish: string; raw: string | null; input: number; output: number }[]
  >`
    SELECT id, capped, response_text AS text, finish_reason AS finish, raw_finish_reason AS raw,
           input_tokens AS input, output_tokens AS output
    FROM model_steps WHERE turn_id = ${t.turnId} AND status = 'ended' ORDER BY started_at DESC LIMIT 1`;
  if (!step) return null;
  const history = await loadHistory(db.sql, agent.id);
  const assistant = history.find((m) => m.stepId === step.id && m.message.role === "assistant");
  const content = assistant && Array.isArray(assistant.message.content) ? assistant.message.content : [];
  const toolCalls = content.flatMap((p) =>
    p.type === "tool-call" ? [{ callId: p.toolCallId, name: p.toolName, input: p.input }] : [],
  );
  return {
    stepId: step.id,
    capped: step.capped,
    response: {
      text: step.text ?? "",
      toolCalls,
      finishReason: step.finish,
      rawFinishReason: step.raw,
      usage: { input: step.input, output: step.output },
    },
  };
}

