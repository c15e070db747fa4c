import { APICallError, generateText, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type CompletionJson, parseSse, postChat, simModel, startSim } from "./start-sim";

const tools = { list_files: tool({ description: "List files", inputSchema: z.object({ path: z.string() }) }) };

describe("faults", () => {
  it("answers an error step with 429, a Retry-After header and an OpenAI-shaped error body", async () => {
    const sim = await startSim({ agents: { "*": [{ error: { status: 429, retryAfterSeconds: 1 } }] } });
    const res = await postChat(sim, { stream: true });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toEqual({
      error: { message: expect.any(String), type: "rate_limit_error", param: null, code: "rate_limit_exceeded" },
    });
  });

  it("consumes the error step, so the AI SDK's retry after Retry-After gets the next step", async () => {
    const sim = await startSim({
      agents: { "*": [{ error: { status: 429, retryAfterSeconds: 1 } }, { text: "recovered" }] },
    });
    const started = Date.now();
    const result = await generateText({ model: simModel(sim), prompt: "hi", maxRetries: 1 });
    expect(result.text).toBe("recovered");
    // The SDK's own back-off would be 2 s; waiting about 1 s shows it honoured the header.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(1900);
    expect(sim.requests()).toHaveLength(2);
  });

  it("surfaces a 500 step to the AI SDK as a retryable API error", async () => {
    const sim = await startSim({ agents: { "*": [{ error: { status: 500, message: "upstream exploded" } }] } });
    const error = await generateText({ model: simModel(sim), prompt: "hi", maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 500, isRetryable: true, message: "upstream exploded" });
    const raw = await postChat(sim, {});
    expect(raw.status).toBe(200); // the error step was consumed; the list has run out
  });

  it("stops a stalled response quietly when the client aborts, and keeps serving", async () => {
    const sim = await startSim({ agents: { "*": [{ text: "too late", delayMs: 30_000 }, { text: "next" }] } });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 150);
    const result = streamText({ model: simModel(sim), prompt: "hi", abortSignal: controller.signal, onError: () => {} });
    await expect(result.text).rejects.toThrow(/abort/i);
    expect(Date.now() - started).toBeLessThan(5_000);
    const after = await generateText({ model: simModel(sim), prompt: "again" });
    expect(after.text).toBe("next");
  });

  it("closes promptly while a stalled request is still waiting", async () => {
    const sim = await startSim({ agents: { "*": [{ text: "never", delayMs: 30_000 }] } });
    const pending = postChat(sim, {}).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await sim.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await pending).toBeInstanceOf(Error);
  });

  it("sends tool-call arguments that are not valid JSON, which the AI SDK marks invalid", async () => {
    const sim = await startSim({
      agents: { "*": [{ toolCalls: [{ name: "list_files", args: { path: "." } }], malformedToolCallJson: true, repeatForever: true }] },
    });
    const raw = (await (await postChat(sim, {})).json()) as CompletionJson;
    const args = raw.choices[0]!.message.tool_calls![0]!.function.arguments;
    expect(() => JSON.parse(args)).toThrow();

    const result = streamText({ model: simModel(sim), prompt: "hi", tools });
    const [call] = await result.toolCalls;
    expect(call).toMatchObject({ toolName: "list_files", invalid: true });
    expect((await result.content).some((part) => part.type === "tool-error")).toBe(true);
  });

  it("resets the connection mid-stream after the scripted number of chunks", async () => {
    const sim = await startSim({
      agents: { "*": [{ text: "one two three four five six", resetAfterChunks: 3, repeatForever: true }] },
    });
    const res = await postChat(sim, { stream: true });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    const failure = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        received += decoder.decode(value, { stream: true });
      }
    })().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    const sse = parseSse(received);
    expect(sse.chunks).toHaveLength(3);
    expect(sse.done).toBe(false);

    const seen: string[] = [];
    const result = streamText({ model: simModel(sim), prompt: "hi", maxRetries: 0, onError: () => {} });
    const thrown = await (async () => {
      for await (const part of result.fullStream) if (part.type === "text-delta") seen.push(part.text);
    })().catch((e: unknown) => e);
    // The SDK keeps the text that arrived, then fails with the socket error as the cause.
    expect(seen).toEqual(["one ", "two "]);
    expect(APICallError.isInstance(thrown)).toBe(true);
    expect(String((thrown as Error).cause)).toMatch(/terminated/);
  });

  it("resets a non-streaming request before any byte of the answer", async () => {
    const sim = await startSim({ agents: { "*": [{ text: "lost", resetAfterChunks: 0 }, { text: "next" }] } });
    await expect(postChat(sim, {})).rejects.toThrow(/fetch failed/);
    const after = await generateText({ model: simModel(sim), prompt: "again" });
    expect(after.text).toBe("next");
  });

  it("cuts text with finish length", async () => {
    const sim = await startSim({ agents: { "*": [{ text: "The survey found that the", finish: "length" }] } });
    const result = streamText({ model: simModel(sim), prompt: "hi" });
    expect(await result.text).toBe("The survey found that the");
    expect(await result.finishReason).toBe("length");
  });
});
