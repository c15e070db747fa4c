import { generateText, tool, type ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getBuiltinScenario, type ModelSim } from "../src/index";
import { agentHeaders, postChat, simModel, startSim } from "./start-sim";

const any = z.looseObject({});
const t = (description: string) => tool({ description, inputSchema: any });
const workTools = { todo_write: t("ledger"), task: t("subagent"), list_files: t("list") };
const withReply = { ...workTools, reply: t("return") };

async function step(sim: ModelSim, headers: Record<string, string>, tools: ToolSet) {
  const result = await generateText({ model: simModel(sim), prompt: "go", tools, headers });
  return {
    text: result.text,
    finish: result.finishReason,
    calls: result.toolCalls.map((c) => ({ name: c.toolName, input: c.input as Record<string, any> })),
    usage: result.usage,
  };
}

describe("the demo scenario", () => {
  it("plays a headless root: plan, two explore subagents in one step, close the ledger, reply", async () => {
    const sim = await startSim(getBuiltinScenario("demo"));
    const root = agentHeaders("ses_demo", "agt_root", "general");

    const plan = await step(sim, root, withReply);
    expect(plan.calls).toHaveLength(1);
    expect(plan.calls[0]?.name).toBe("todo_write");
    expect(plan.calls[0]?.input.todos).toHaveLength(3);

    const delegate = await step(sim, root, withReply);
    expect(delegate.calls.map((c) => [c.name, c.input.profile])).toEqual([
      ["task", "explore"],
      ["task", "explore"],
    ]);

    const close = await step(sim, root, withReply);
    expect(close.calls[0]?.input.todos.every((todo: { status: string }) => todo.status === "completed")).toBe(true);

    const answer = await step(sim, root, withReply);
    expect(answer.calls).toEqual([{ name: "reply", input: { value: expect.stringContaining("Demo summary") } }]);
    expect(answer.finish).toBe("tool-calls");
    for (const s of [plan, delegate, close, answer]) {
      expect(s.usage.inputTokens).toBeGreaterThan(0);
      expect(s.usage.inputTokens).toBeLessThan(2_000);
    }
  });

  it("ends an interactive root, which is never offered reply, on the summary text", async () => {
    const sim = await startSim(getBuiltinScenario("demo"));
    const root = agentHeaders("ses_demo", "agt_root", "general");
    for (let i = 0; i < 3; i++) await step(sim, root, workTools);
    const answer = await step(sim, root, workTools);
    expect(answer.calls).toEqual([]);
    expect(answer.text).toContain("Demo summary");
    expect(answer.finish).toBe("stop");
  });

  it("plays each explore subagent its own ledger and a string reply", async () => {
    const sim = await startSim(getBuiltinScenario("demo"));
    const tools = { todo_write: t("ledger"), reply: t("return") };
    for (const agent of ["agt_child_1", "agt_child_2"]) {
      const headers = agentHeaders("ses_demo", agent, "explore");
      const open = await step(sim, headers, tools);
      expect(open.calls[0]?.input.todos).toEqual([expect.objectContaining({ status: "in_progress" })]);
      const done = await step(sim, headers, tools);
      expect(done.calls[0]?.input.todos).toEqual([expect.objectContaining({ status: "completed" })]);
      const reply = await step(sim, headers, tools);
      expect(reply.calls).toEqual([{ name: "reply", input: { value: expect.any(String) } }]);
    }
  });
});

describe("the contract-case scenarios", () => {
  const headers = agentHeaders("ses_c", "agt_root", "general");

  it("reply-object replies with an object", async () => {
    const sim = await startSim(getBuiltinScenario("reply-object"));
    const { calls } = await step(sim, headers, withReply);
    expect(calls).toEqual([{ name: "reply", input: { value: expect.objectContaining({ status: "ok" }) } }]);
  });

  it("reply-string-brace replies with a string that starts with {", async () => {
    const sim = await startSim(getBuiltinScenario("reply-string-brace"));
    const value = (await step(sim, headers, withReply)).calls[0]?.input.value;
    expect(typeof value).toBe("string");
    expect(value).toMatch(/^\{/);
  });

  it("prose-forever answers in prose on every request and never calls a tool", async () => {
    const sim = await startSim(getBuiltinScenario("prose-forever"));
    for (let i = 0; i < 5; i++) {
      const s = await step(sim, headers, withReply);
      expect(s.calls).toEqual([]);
      expect(s.text.trim()).not.toBe("");
    }
  });

  it("always-tools calls list_files on every request", async () => {
    const sim = await startSim(getBuiltinScenario("always-tools"));
    for (let i = 0; i < 5; i++) {
      expect((await step(sim, headers, withReply)).calls).toEqual([{ name: "list_files", input: { path: "." } }]);
    }
  });

  it("cap-text calls tools three times, then answers in text", async () => {
    const sim = await startSim(getBuiltinScenario("cap-text"));
    const kinds = [];
    for (let i = 0; i < 5; i++) {
      const s = await step(sim, headers, withReply);
      kinds.push(s.calls.length > 0 ? "tools" : "text");
    }
    expect(kinds).toEqual(["tools", "tools", "tools", "text", "text"]);
  });

  it("length-cut and content-filter end with those finish reasons after partial text", async () => {
    for (const [name, finish] of [
      ["length-cut", "length"],
      ["content-filter", "content-filter"],
    ] as const) {
      const sim = await startSim(getBuiltinScenario(name));
      const s = await step(sim, headers, withReply);
      expect(s.finish).toBe(finish);
      expect(s.text).not.toBe("");
    }
  });

  it("retry-429 answers 429 with Retry-After 1, then text and a reply", async () => {
    const sim = await startSim(getBuiltinScenario("retry-429"));
    const limited = await postChat(sim, {}, headers);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    const s = await step(sim, headers, withReply);
    expect(s.text).not.toBe("");
    expect(s.calls.map((c) => c.name)).toEqual(["reply"]);
  });

  it("schema-mismatch replies without the answer field first, then conforms", async () => {
    const sim = await startSim(getBuiltinScenario("schema-mismatch"));
    const first = (await step(sim, headers, withReply)).calls[0]?.input.value;
    const second = (await step(sim, headers, withReply)).calls[0]?.input.value;
    expect(first).not.toHaveProperty("answer");
    expect(second).toEqual({ answer: expect.any(String) });
  });
});

describe("the dashboard scenarios", () => {
  const exploreTools = { todo_write: t("ledger"), reply: t("return") };

  it("explore-cut: the root delegates to explore, which keeps a ledger and is cut by the length limit with items open", async () => {
    const sim = await startSim(getBuiltinScenario("explore-cut"));
    const root = agentHeaders("ses_d", "agt_root", "general");
    const delegate = await step(sim, root, workTools);
    expect(delegate.calls).toEqual([{ name: "task", input: expect.objectContaining({ profile: "explore" }) }]);

    const child = agentHeaders("ses_d", "agt_child", "explore");
    const plan = await step(sim, child, exploreTools);
    const todos = plan.calls[0]?.input.todos as { status: string }[];
    expect(todos.filter((todo) => todo.status === "pending" || todo.status === "in_progress")).toHaveLength(2);
    const cut = await step(sim, child, exploreTools);
    expect(cut.finish).toBe("length");
    expect(cut.calls).toEqual([]);
    expect(cut.text).not.toBe("");

    // A resume plays the rest: the ledger closes, then a reply.
    const close = await step(sim, child, exploreTools);
    expect(close.calls[0]?.input.todos.every((todo: { status: string }) => todo.status === "completed")).toBe(true);
    const reply = await step(sim, child, exploreTools);
    expect(reply.calls).toEqual([{ name: "reply", input: { value: expect.stringContaining("Resumed") } }]);

    // The interactive root ends on text; it is never offered reply.
    const end = await step(sim, root, workTools);
    expect(end.calls).toEqual([]);
    expect(end.text).toContain("cut off");
  });

  it("reply-markdown replies with a Markdown string, or says it as text when reply is not offered", async () => {
    const sim = await startSim(getBuiltinScenario("reply-markdown"));
    const value = (await step(sim, agentHeaders("ses_m", "agt_a", "general"), withReply)).calls[0]?.input.value;
    expect(typeof value).toBe("string");
    expect(value).toMatch(/^## Findings/m);
    expect(value).toMatch(/\*\*three\*\*/);
    const spoken = await step(sim, agentHeaders("ses_m", "agt_b", "general"), workTools);
    expect(spoken.calls).toEqual([]);
    expect(spoken.text).toBe(value);
  });

  it("paced takes six steps of at least 800 ms each before its answer", async () => {
    const sim = await startSim(getBuiltinScenario("paced"));
    const root = agentHeaders("ses_p", "agt_root", "general");
    const started = Date.now();
    const names: string[][] = [];
    for (let i = 0; i < 6; i++) names.push((await step(sim, root, withReply)).calls.map((c) => c.name));
    expect(Date.now() - started).toBeGreaterThanOrEqual(6 * 800);
    expect(names).toEqual([["todo_write"], ["list_files"], ["todo_write"], ["list_files"], ["todo_write"], ["reply"]]);
  });
});
