import { streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RecordedRequest } from "../src/index";
import { agentHeaders, simModel, startSim } from "./start-sim";

describe("request log", () => {
  it("records each request's headers and parsed body in arrival order, over HTTP and in process", async () => {
    const sim = await startSim({ agents: { "*": [{ text: "one" }, { text: "two" }] } });
    const tools = { list_files: tool({ description: "List files", inputSchema: z.object({ path: z.string() }) }) };
    for (const prompt of ["first", "second"]) {
      await streamText({ model: simModel(sim), prompt, tools, headers: agentHeaders("ses_9", "agt_9", "general") }).text;
    }

    const res = await fetch(sim.url.replace(/\/v1$/, "/_sim/requests"));
    const logged = (await res.json()) as RecordedRequest[];
    expect(logged).toEqual(sim.requests());
    expect(logged).toHaveLength(2);
    const [first, second] = logged as [RecordedRequest, RecordedRequest];
    expect(first).toMatchObject({
      method: "POST",
      path: "/v1/chat/completions",
      headers: { "x-handoff-session": "ses_9", "x-handoff-agent": "agt_9", "x-handoff-profile": "general" },
      body: {
        model: "sim-test",
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: "user", content: "first" }],
        tools: [{ type: "function", function: { name: "list_files" } }],
      },
    });
    expect((second.body as { messages: unknown }).messages).toEqual([{ role: "user", content: "second" }]);
    expect(Date.parse(first.at)).toBeLessThanOrEqual(Date.parse(second.at));
  });

  it("clears the log on DELETE /_sim/requests and on clearRequests()", async () => {
    const sim = await startSim({ agents: {} });
    const log = sim.url.replace(/\/v1$/, "/_sim/requests");
    await fetch(`${sim.url}/models`);
    expect(sim.requests()).toHaveLength(1);
    expect((await fetch(log, { method: "DELETE" })).status).toBe(204);
    expect(await (await fetch(log)).json()).toEqual([]);
    await fetch(`${sim.url}/models`);
    sim.clearRequests();
    expect(sim.requests()).toEqual([]);
  });

  it("hands out copies, so editing what requests() returned changes nothing", async () => {
    const sim = await startSim({ agents: {} });
    await fetch(`${sim.url}/models`);
    sim.requests()[0]!.path = "/edited";
    expect(sim.requests()[0]?.path).toBe("/v1/models");
  });
});
