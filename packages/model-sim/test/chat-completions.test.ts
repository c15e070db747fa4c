import { generateText, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseSse, postChat, simModel, startSim } from "./start-sim";

const tools = {
  list_files: tool({ description: "List files", inputSchema: z.object({ path: z.string() }) }),
  task: tool({ description: "Run a subagent", inputSchema: z.object({ profile: z.string(), prompt: z.string() }) }),
};

describe("chat completions through the AI SDK", () => {
  it("streams scripted text that the AI SDK reassembles exactly", async () => {
    const text = "Hello there,\n\nthis is  a **scripted** answer.";
    const sim = await startSim({ agents: { "*": [{ text }] } });
    const result = streamText({ model: simModel(sim), prompt: "hi" });
    expect(await result.text).toBe(text);
    expect(await result.finishReason).toBe("stop");
  });

  it("streams tool calls whose arguments arrive in pieces and are parsed into objects", async () => {
    const longPrompt = "Survey the workspace and list what each top-level entry is for.";
    const sim = await startSim({
      agents: {
        "*": [
          {
            text: "Two at once.",
            toolCalls: [
              { name: "task", args: { profile: "explore", prompt: longPrompt } },
              { name: "list_files", args: { path: "." } },
            ],
          },
        ],
      },
    });
    const result = streamText({ model: simModel(sim), prompt: "go", tools });
    const calls = await result.toolCalls;
    expect(calls.map((c) => [c.toolName, c.input])).toEqual([
      ["task", { profile: "explore", prompt: longPrompt }],
      ["list_files", { path: "." }],
    ]);
    expect(new Set(calls.map((c) => c.toolCallId)).size).toBe(2);
    expect(calls.every((c) => /^call_\d+$/.test(c.toolCallId))).toBe(true);
    expect(await result.text).toBe("Two at once.");
    expect(await result.finishReason).toBe("tool-calls");
  });

  it("answers a non-streaming request with one chat.completion carrying text, tool calls and usage", async () => {
    const sim = await startSim({
      agents: { "*": [{ text: "Looking.", toolCalls: [{ name: "list_files", args: { path: "src" } }], usage: { input: 40, output: 7 } }] },
    });
    const result = await generateText({ model: simModel(sim), prompt: "go", tools });
    expect(result.text).toBe("Looking.");
    expect(result.toolCalls.map((c) => [c.toolName, c.input])).toEqual([["list_files", { path: "src" }]]);
    expect(result.finishReason).toBe("tool-calls");
    expect(result.usage).toMatchObject({ inputTokens: 40, outputTokens: 7, totalTokens: 47 });
    const [request] = sim.requests();
    expect(request?.body).toMatchObject({ model: "sim-test" });
    expect((request?.body as { stream?: boolean }).stream).toBeFalsy();
  });

  it.each([
    { finish: "stop", unified: "stop" },
    { finish: "length", unified: "length" },
    { finish: "tool_calls", unified: "tool-calls" },
    { finish: "content_filter", unified: "content-filter" },
  ] as const)("reports finish $finish as the AI SDK's $unified, streaming and not", async ({ finish, unified }) => {
    const sim = await startSim({ agents: { "*": [{ text: "partial", finish, repeatForever: true }] } });
    const streamed = streamText({ model: simModel(sim), prompt: "hi" });
    expect(await streamed.finishReason).toBe(unified);
    expect(await streamed.rawFinishReason).toBe(finish);
    const generated = await generateText({ model: simModel(sim), prompt: "hi" });
    expect(generated.finishReason).toBe(unified);
    expect(generated.rawFinishReason).toBe(finish);
  });

  it("finishes with tool_calls when a step has tool calls and no explicit finish, else with stop", async () => {
    const sim = await startSim({
      agents: { "*": [{ toolCalls: [{ name: "list_files", args: { path: "." } }] }, { text: "done" }] },
    });
    expect(await streamText({ model: simModel(sim), prompt: "a", tools }).finishReason).toBe("tool-calls");
    expect(await streamText({ model: simModel(sim), prompt: "b", tools }).finishReason).toBe("stop");
  });

  it("reports the scripted usage in a stream when the client asks for it", async () => {
    const sim = await startSim({ agents: { "*": [{ text: "ok", usage: { input: 321, output: 12 } }] } });
    const result = streamText({ model: simModel(sim), prompt: "hi" });
    expect(await result.usage).toMatchObject({ inputTokens: 321, outputTokens: 12, totalTokens: 333 });
  });

  it("estimates usage when the step scripts none", async () => {
    const sim = await startSim({ agents: { "*": [{ text: "a few words of answer" }] } });
    const result = await generateText({ model: simModel(sim), prompt: "a question of some length" });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens! + result.usage.outputTokens!);
  });

  it("ends a stream with the finish chunk, the usage chunk only when asked, then [DONE]", async () => {
    const sim = await startSim({ agents: { "*": [{ text: "one two", usage: { input: 5, output: 2 }, repeatForever: true }] } });
    const withUsage = await postChat(sim, { stream: true, stream_options: { include_usage: true } });
    expect(withUsage.headers.get("content-type")).toBe("text/event-stream");
    const sse = parseSse(await withUsage.text());
    expect(sse.done).toBe(true);
    expect(sse.chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } });
    expect(sse.chunks.at(-2)?.choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" });
    expect(sse.chunks.every((c) => c.object === "chat.completion.chunk" && c.id === sse.chunks[0]?.id)).toBe(true);

    const without = parseSse(await (await postChat(sim, { stream: true })).text());
    expect(without.done).toBe(true);
    expect(without.chunks.some((c) => c.usage)).toBe(false);
    expect(without.chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
  });

  it("lists a model at GET /v1/models", async () => {
    const sim = await startSim({ agents: {} });
    const body = await (await fetch(`${sim.url}/models`)).json();
    expect(body).toMatchObject({ object: "list", data: [{ id: "sim", object: "model" }] });
  });

  it("rejects a request without messages with a 400 in OpenAI's error shape", async () => {
    const sim = await startSim({ agents: {} });
    const res = await fetch(`${sim.url}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "x" }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { type: "invalid_request_error", message: expect.stringContaining("messages") } });
  });
});
