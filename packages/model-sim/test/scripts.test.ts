import { generateText, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Scenario } from "../src/index";
import { agentHeaders, type CompletionJson, postChat, simModel, startSim } from "./start-sim";

const scenario: Scenario = {
  agents: {
    explore: [{ text: "explore 1" }, { text: "explore 2" }],
    "*": [{ text: "any 1" }],
  },
};

async function say(sim: Awaited<ReturnType<typeof startSim>>, headers?: Record<string, string>) {
  return (await generateText({ model: simModel(sim), prompt: "next", headers })).text;
}

describe("script selection", () => {
  it("plays each agent instance of a profile its own list from step 1", async () => {
    const sim = await startSim(scenario);
    const a = agentHeaders("ses_1", "agt_a", "explore");
    const b = agentHeaders("ses_1", "agt_b", "explore");
    expect(await say(sim, a)).toBe("explore 1");
    expect(await say(sim, b)).toBe("explore 1");
    expect(await say(sim, b)).toBe("explore 2");
    expect(await say(sim, a)).toBe("explore 2");
  });

  it("keys instances by session too, so the same agent id in another session starts over", async () => {
    const sim = await startSim(scenario);
    expect(await say(sim, agentHeaders("ses_1", "agt_a", "explore"))).toBe("explore 1");
    expect(await say(sim, agentHeaders("ses_2", "agt_a", "explore"))).toBe("explore 1");
  });

  it("falls back to the * list for a profile without one", async () => {
    const sim = await startSim(scenario);
    expect(await say(sim, agentHeaders("ses_1", "agt_root", "general"))).toBe("any 1");
  });

  it("answers empty text with finish stop once an instance's list has run out", async () => {
    const sim = await startSim(scenario);
    const headers = agentHeaders("ses_1", "agt_root", "general");
    await say(sim, headers);
    const result = await generateText({ model: simModel(sim), prompt: "more", headers });
    expect(result.text).toBe("");
    expect(result.finishReason).toBe("stop");
  });

  it("plays requests without tracing headers as one anonymous instance of profile *", async () => {
    const sim = await startSim({ agents: { explore: [{ text: "not me" }], "*": [{ text: "anon 1" }, { text: "anon 2" }] } });
    expect(await say(sim)).toBe("anon 1");
    expect(await say(sim)).toBe("anon 2");
  });

  it("repeats a repeatForever step on every later request of the instance", async () => {
    const sim = await startSim({ agents: { "*": [{ text: "first" }, { text: "again", repeatForever: true }] } });
    const texts = [];
    for (let i = 0; i < 4; i++) texts.push(await say(sim));
    expect(texts).toEqual(["first", "again", "again", "again"]);
  });

  it("sends an ifOffered tool call only when the request offers that tool", async () => {
    const sim = await startSim({
      agents: { "*": [{ text: "summary", toolCalls: [{ name: "reply", args: { value: "summary" }, ifOffered: true }], repeatForever: true }] },
    });
    const reply = tool({ description: "Return", inputSchema: z.object({ value: z.unknown() }) });
    const list_files = tool({ description: "List", inputSchema: z.object({ path: z.string() }) });

    const offered = streamText({ model: simModel(sim), prompt: "a", tools: { reply } });
    expect((await offered.toolCalls).map((c) => [c.toolName, c.input])).toEqual([["reply", { value: "summary" }]]);
    expect(await offered.finishReason).toBe("tool-calls");

    const notOffered = streamText({ model: simModel(sim), prompt: "b", tools: { list_files } });
    expect(await notOffered.toolCalls).toEqual([]);
    expect(await notOffered.text).toBe("summary");
    expect(await notOffered.finishReason).toBe("stop");

    // The AI SDK still sends the tools with toolChoice "none"; that offers nothing.
    const none = streamText({ model: simModel(sim), prompt: "c", tools: { reply }, toolChoice: "none" });
    expect(await none.toolCalls).toEqual([]);
  });

  it("gives every tool call a distinct id across steps and agents", async () => {
    const step = { toolCalls: [{ name: "x", args: {} }, { name: "y", args: {} }], repeatForever: true };
    const sim = await startSim({ agents: { "*": [step] } });
    const ids: string[] = [];
    for (const agent of ["agt_a", "agt_b"]) {
      const res = await postChat(sim, {}, agentHeaders("ses_1", agent, "p"));
      const body = (await res.json()) as CompletionJson;
      ids.push(...(body.choices[0]?.message.tool_calls ?? []).map((c) => c.id));
    }
    expect(new Set(ids).size).toBe(4);
  });

  it("replaces the scenario at PUT /_sim/scenario and starts every instance over", async () => {
    const sim = await startSim({ agents: { "*": [{ text: "old 1" }, { text: "old 2" }] } });
    expect(await say(sim)).toBe("old 1");
    const res = await fetch(sim.url.replace(/\/v1$/, "/_sim/scenario"), {
      method: "PUT",
      body: JSON.stringify({ agents: { "*": [{ text: "new 1" }] } }),
    });
    expect(res.status).toBe(204);
    expect(await say(sim)).toBe("new 1");
    sim.setScenario({ agents: { "*": [{ text: "set 1" }] } });
    expect(await say(sim)).toBe("set 1");
  });
});
