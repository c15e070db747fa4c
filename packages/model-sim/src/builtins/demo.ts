import type { Scenario } from "../scenario/scenario";

const SUMMARY = [
  "## Demo summary",
  "",
  "- **Workspace**: surveyed by an `explore` subagent.",
  "- **Design**: summarized by a second `explore` subagent, running beside the first.",
  "- **Ledger**: all three todo items are completed.",
  "",
  "_Played by model-sim's `demo` scenario (`sim:demo`). Configure a real model to get real work done._",
].join("\n");

const CHILD_REPLY = "Done: looked around as asked; nothing needs attention.";

const rootTodos = (status: "pending" | "completed") => ({
  todos: [
    { id: "1", content: "Survey the workspace", status: status === "completed" ? "completed" : "in_progress" },
    { id: "2", content: "Summarize the design", status },
    { id: "3", content: "Write the summary", status },
  ],
});

const childTodos = (status: "in_progress" | "completed") => ({
  todos: [{ id: "1", content: "Look around and report back", status }],
});

/**
 * The default model of the service: a root that plans, delegates to two subagents at once, closes
 * its ledger and answers. The delays let a person watching the dashboard see events arrive.
 */
export const demo: Scenario = {
  agents: {
    general: [
      {
        text: "Let me plan this first.",
        toolCalls: [{ name: "todo_write", args: rootTodos("pending") }],
        delayMs: 250,
        usage: { input: 412, output: 64 },
      },
      {
        text: "Starting two explorers in parallel.",
        toolCalls: [
          { name: "task", args: { profile: "explore", prompt: "Survey the workspace and list what each top-level entry is for." } },
          { name: "task", args: { profile: "explore", prompt: "Summarize the design in a few bullet points." } },
        ],
        delayMs: 300,
        usage: { input: 538, output: 71 },
      },
      {
        toolCalls: [{ name: "todo_write", args: rootTodos("completed") }],
        delayMs: 200,
        usage: { input: 702, output: 48 },
      },
      {
        // An interactive root is never offered `reply`: it ends on this text. A headless root is, and replies.
        text: SUMMARY,
        toolCalls: [{ name: "reply", args: { value: SUMMARY }, ifOffered: true }],
        delayMs: 150,
        usage: { input: 781, output: 96 },
      },
    ],
    explore: [
      {
        text: "Noting what to do.",
        toolCalls: [{ name: "todo_write", args: childTodos("in_progress") }],
        delayMs: 200,
        usage: { input: 236, output: 33 },
      },
      {
        toolCalls: [{ name: "todo_write", args: childTodos("completed") }],
        delayMs: 250,
        usage: { input: 301, output: 29 },
      },
      {
        toolCalls: [{ name: "reply", args: { value: CHILD_REPLY } }],
        delayMs: 150,
        usage: { input: 344, output: 24 },
      },
    ],
    "*": [
      {
        text: "Hello from model-sim's demo scenario; this profile has no script of its own.",
        toolCalls: [{ name: "reply", args: { value: "Hello from model-sim's demo scenario." }, ifOffered: true }],
        delayMs: 150,
        usage: { input: 120, output: 22 },
      },
    ],
  },
};
