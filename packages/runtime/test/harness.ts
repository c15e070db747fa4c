import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createSession, enqueue, readEvents, type Db, type StoredEvent } from "@handoff/db";
import { createModelSim, type ModelSim, type RecordedRequest, type Scenario } from "@handoff/model-sim";
import { onTestFinished } from "vitest";
import { createRuntime, ownSession, runtimeEnv, type RuntimeHandle } from "../src/index";

export interface Harness {
  sim: ModelSim;
  runtime: RuntimeHandle;
  dataDir: string;
}

/** model-sim playing `scenario`, and a runtime whose default model is it; both closed when the test ends. */
export async function startHarness(
  scenario: Scenario,
  options: { profiles?: Record<string, string>; env?: Record<string, string> } = {},
): Promise<Harness> {
  const sim = await createModelSim({ scenario });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "handoff-rt-"));
  const agentsDir = path.join(dataDir, "agents");
  await mkdir(agentsDir);
  for (const [name, text] of Object.entries(options.profiles ?? {})) await writeFile(path.join(agentsDir, `${name}.md`), text);
  const runtime = await createRuntime(
    runtimeEnv({
      HANDOFF_MODEL: "openai-compatible:sim",
      HANDOFF_BASE_URL: sim.url,
      HANDOFF_DATA_DIR: dataDir,
      HANDOFF_AGENTS_DIR: agentsDir,
      HANDOFF_MODEL_TIMEOUT_MS: "5000",
      ...options.env,
    }),
    { retryBaseDelayMs: 20 },
  );
  onTestFinished(async () => {
    await runtime.close();
    await sim.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { sim, runtime, dataDir };
}

export interface RunOutcome {
  sessionId: string;
  rootAgentId: string;
  root: AgentFacts;
  events: StoredEvent[];
  /** Chat completion requests the model received, housekeeping excluded. */
  steps: RecordedRequest[];
  requests: RecordedRequest[];
}

export interface AgentFacts {
  status: string;
  stopReason: string | null;
  stopDetail: string | null;
  rawFinishReason: string | null;
  failureTag: string | null;
  replyValue: unknown;
  partialText: string | null;
  finalMessagePresent: boolean | null;
  openTodoCount: number | null;
  verdict: string | null;
  verdictRule: string | null;
  modelSteps: number;
  inputTokens: number;
  outputTokens: number;
}

/** Creates a session, sends one prompt and drives it in process until nothing is left to do. */
export async function runPrompt(
  db: Db,
  h: Harness,
  input: { prompt: string; mode?: "interactive" | "headless"; profile?: string; maxSteps?: number },
): Promise<RunOutcome> {
  const { sessionId, rootAgentId } = await createSession(db, {
    mode: input.mode ?? "headless",
    profile: input.profile ?? "general",
    config: input.maxSteps ? { maxSteps: input.maxSteps } : {},
  });
  const owner = await ownSession(db, sessionId, h.runtime.driver);
  if (!owner) throw new Error("could not claim the new session");
  try {
    await enqueue(db, { sessionId, kind: "prompt", payload: { text: input.prompt } }, { maxPayloadBytes: 1 << 20 });
    await owner.driveToIdle();
  } finally {
    await owner.release();
  }
  const requests = h.sim.requests().filter((r) => r.headers["x-handoff-session"] === sessionId);
  return {
    sessionId,
    rootAgentId,
    root: await agentFacts(db, rootAgentId),
    events: await readEvents(db.sql, sessionId, 0, 100_000),
    requests,
    steps: requests.filter((r) => r.headers["x-handoff-purpose"] !== "housekeeping"),
  };
}

export async function agentFacts(db: Db, agentId: string): Promise<AgentFacts> {
  const [row] = await db.sql<AgentFacts[]>`
    SELECT status, stop_reason AS "stopReason", stop_detail AS "stopDetail", raw_finish_reason AS "rawFinishReason",
           failure_tag AS "failureTag", reply_value AS "replyValue", partial_text AS "partialText",
           final_message_present AS "finalMessagePresent", open_todo_count AS "openTodoCount",
           verdict, verdict_rule AS "verdictRule", model_steps AS "modelSteps",
           input_tokens AS "inputTokens", output_tokens AS "outputTokens"
    FROM agents WHERE id = ${agentId}`;
  if (!row) throw new Error(`no agent ${agentId}`);
  return row;
}

type WireMessage = { role: string; content?: unknown; tool_calls?: unknown[] };
type WireBody = { messages: WireMessage[]; tools?: { function: { name: string } }[]; tool_choice?: unknown };

export function body(request: RecordedRequest): WireBody {
  return request.body as WireBody;
}

export function toolNames(request: RecordedRequest): string[] {
  return (body(request).tools ?? []).map((t) => t.function.name).sort();
}

export function lastMessage(request: RecordedRequest): WireMessage {
  const messages = body(request).messages;
  return messages[messages.length - 1]!;
}
