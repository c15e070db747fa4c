import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { onTestFinished } from "vitest";
import { createModelSim, type ModelSim, type Scenario } from "../src/index";

/** A simulator that closes itself when the test ends, pass or fail. */
export async function startSim(scenario: Scenario): Promise<ModelSim> {
  const sim = await createModelSim({ scenario });
  onTestFinished(() => sim.close());
  return sim;
}

/** The AI SDK provider the runtime uses, pointed at the simulator. */
export function simModel(sim: ModelSim, modelId = "sim-test") {
  return createOpenAICompatible({ name: "sim", baseURL: sim.url, includeUsage: true })(modelId);
}

/** The tracing headers the runtime sends with every model request. */
export function agentHeaders(session: string, agent: string, profile: string): Record<string, string> {
  return { "x-handoff-session": session, "x-handoff-agent": agent, "x-handoff-profile": profile };
}

/** A plain Chat Completions request, for looking at the wire without a client in between. */
export function postChat(sim: ModelSim, body: Record<string, unknown>, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return fetch(`${sim.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ model: "sim-test", messages: [{ role: "user", content: "hi" }], ...body }),
    signal,
  });
}

/** The parts of a non-streaming `chat.completion` the tests read. */
export interface CompletionJson {
  choices: Array<{
    message: { content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> };
    finish_reason: string;
  }>;
}

/** The JSON payloads of an SSE body (without `[DONE]`) and whether it ended with `[DONE]`. */
export function parseSse(text: string): { chunks: Array<Record<string, any>>; done: boolean } {
  const data = text
    .split("\n\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => event.slice("data: ".length));
  const done = data.at(-1) === "[DONE]";
  return { chunks: data.filter((d) => d !== "[DONE]").map((d) => JSON.parse(d)), done };
}
