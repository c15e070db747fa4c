import { mkdir } from "node:fs/promises";
import path from "node:path";
import { admit, fencedTransaction } from "@handoff/db";
import type { DriveContext } from "@handoff/worker/driver";
import type { LanguageModel } from "ai";
import type { ModelResponse } from "../models/call-model";
import type { Profile } from "../profiles/profile";
import type { ToolContext } from "../tools/tool-context";
import { subagentService } from "../subagents/subagent-service";
import { loadAgentAtTurnStart, type AgentRow } from "./agent-row";
import type { AgentRunners } from "./agent-runners";
import { endAgent, type Stop } from "./end-agent";
import { generateTitle } from "./generate-title";
import { appendMessages, lastWrittenText, loadHistory, type StoredMessage } from "./history";
import { inboxMessageText } from "./inbox-message-text";
import { runModelStep } from "./model-step";
import { offeredTools } from "./offered-tools";
import { settleStep } from "./settle-step";
import { startTurn } from "./start-turn";
import { buildRequest } from "./step-request";
import type { Runtime, TurnContext } from "./turn-context";
import { TurnWriter } from "./turn-writer";

export type TurnResult = "ended" | "nothing-to-do" | "stopped";

/**
 * One turn of one agent: admit, then model steps and tool batches until the agent stops
 * (C1, C2), admitting steering at each step boundary. Resumes a turn a dead worker left.
 */
export async function runTurn(rt: Runtime, ctx: DriveContext, agentId: string, runners: AgentRunners): Promise<TurnResult> {
  const start = await loadAgentAtTurnStart(ctx.db.sql, agentId);
  const agent = start.agent;
  const turn = await startTurn(ctx, start);
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
  const titling = agent.parentId === null && !agent.sessionTitle && turn.firstPrompt !== null;
  if (titling) await generateTitle(t, agent, model, turn.firstPrompt!);

  // The turn's history and counters live in memory from here on (see TurnWriter).
  const writer = new TurnWriter(ctx.db, ctx.lease, agent, {
    history: await loadHistory(ctx.db.sql, agent.id),
    modelSteps: turn.modelSteps,
    nudges: turn.nudges,
    // A new turn has just admitted everything queued, unless a title request took its time since.
    steeringQueued: turn.resumed || titling,
    unsettledStepId: null,
  });
  const state = writer.state;

  const finish = async (stop: Stop, stepId: string | null): Promise<TurnResult> => {
    await writer.flush();
    const { evidence, abandoned } = await endAgent(scope, agent, turn.turnId, stop, stepId);
    runners.abort(abandoned, "abandoned: the headless root ended");
    log.info({ stopReason: stop.reason, verdict: evidence.verdict, abandoned: abandoned.length }, "agent stopped");
    return "ended";
  };

  // After a crash: a step left running is redone; one whose response was recorded is settled again.
  if (turn.resumed) {
    const pending = await recoverSteps(t, state.history);
    if (pending) {
      const stop = await settleStep(t, agent, writer, {
        stepId: pending.stepId,
        response: pending.response,
        capped: pending.capped,
        offered: offeredTools(profile, agent.returning, pending.capped),
        toolCtx,
        nudgesUsed: state.nudges,
        nudgeBudget: profile.nudgeBudget,
        lastText: lastWrittenText(state.history.filter((m) => m.stepId !== pending.stepId), turn.turnId),
        recovering: true,
      });
      if (stop) return finish(stop, pending.stepId);
    }
  }

  for (;;) {
    if (ctx.signal.aborted || ctx.draining.aborted) {
      await writer.flush();
      return "stopped";
    }
    if (state.steeringQueued) {
      state.steeringQueued = false;
      await admitSteering(ctx, agent, turn.turnId, writer);
    }
    const number = state.modelSteps + 1;
    const capped = number >= maxSteps;
    const offered = offeredTools(profile, agent.returning, capped);
    const lastText = lastWrittenText(state.history, turn.turnId);
    const request = buildRequest({
      system: profile.systemPrompt,
      history: state.history.map((m) => m.message),
      tools: offered,
      capped,
      returning: agent.returning,
    });
    const outcome = await runModelStep(
      t,
      agent,
      model,
      { number, capped, system: profile.systemPrompt, tools: offered, ...request },
      writer,
    );
    if ("error" in outcome) {
      return finish({ reason: "error", detail: outcome.error.message, partialText: lastText }, null);
    }
    const stop = await settleStep(t, agent, writer, {
      stepId: outcome.stepId,
      response: outcome.response,
      capped,
      offered,
      toolCtx,
      nudgesUsed: state.nudges,
      nudgeBudget: profile.nudgeBudget,
      lastText,
      recovering: false,
    });
    if (stop) return finish(stop, outcome.stepId);
  }
}

/** Steering, injected context and child results join the running turn at a step boundary. */
async function admitSteering(ctx: DriveContext, agent: AgentRow, turnId: string, writer: TurnWriter): Promise<void> {
  // History rows keep their order: nothing of the turn's may be left to write after these.
  await writer.flush();
  let admitted: StoredMessage[] = [];
  await admit(ctx.db, {
    sessionId: agent.sessionId,
    agentId: agent.id,
    isRoot: agent.parentId === null,
    turnId,
    kinds: ["steer", "context", "child_result"],
    epoch: ctx.lease.epoch,
    onAdmitted: async (tx, { messages }) => {
      const stored = await appendMessages(
        tx,
        { sessionId: agent.sessionId, agentId: agent.id, turnId },
        messages.map((m) => ({ role: "user" as const, content: inboxMessageText(m) })),
      );
      // Into memory only once the admission commits.
      admitted = stored;
    },
  });
  writer.state.history.push(...admitted);
}

/**
 * Marks a step that was running when its worker died as abandoned (it will be redone) and
 * returns the last step whose response was recorded but not yet settled, if any.
 */
async function recoverSteps(
  t: TurnContext,
  history: StoredMessage[],
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

