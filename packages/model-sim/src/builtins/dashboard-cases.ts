import type { Scenario, Step } from "../scenario/scenario";

/** A small step cost, so usage totals are easy to read on the dashboard. */
const usage = { input: 150, output: 30 };

/** A reply when the request offers one (headless root, subagent), the same words as text otherwise (interactive root). */
const answer = (value: string, delayMs = 150): Step => ({
  text: value,
  toolCalls: [{ name: "reply", args: { value }, ifOffered: true }],
  delayMs,
  usage,
});

const REPORT = [
  "## Findings",
  "",
  "The workspace holds **three** entries; one needs attention.",
  "",
  "- `README.md` describes the service",
  "- `config.json` is *stale*",
  "- `notes/` is empty",
  "",
  "```sh",
  "handoff run \"refresh the config\"",
  "```",
].join("\n");

const surveyTodos = (done: number) => ({
  todos: ["Survey the workspace", "Read the README", "Summarize the layout"].map((content, i) => ({
    id: String(i + 1),
    content,
    status: i < done ? "completed" : i === done ? "in_progress" : "pending",
  })),
});

/** Scenarios the dashboard's browser tests play: each shows one thing a person must be able to see. */
export const dashboardCases = {
  /**
   * A root delegates to an `explore` subagent that keeps a ledger and is cut by the token limit
   * (finish "length") with two items open: Failed, `max_tokens`, INCOMPLETE, a resume hint. A
   * resume then plays the rest of its list: it closes the ledger and replies.
   */
  "explore-cut": {
    agents: {
      general: [
        {
          text: "Delegating the survey.",
          toolCalls: [{ name: "task", args: { profile: "explore", prompt: "Survey the workspace; keep a ledger as you go." } }],
          delayMs: 150,
          usage,
        },
        answer("The explorer was cut off by the length limit; its open items are in the inspector, ready to resume."),
      ],
      explore: [
        { text: "Planning the survey.", toolCalls: [{ name: "todo_write", args: surveyTodos(1) }], delayMs: 200, usage },
        { text: "The workspace has three top-level entries. The README says that the", finish: "length", delayMs: 200, usage },
        // Played after a resume: the open items get done, then the reply.
        { toolCalls: [{ name: "todo_write", args: surveyTodos(3) }], delayMs: 150, usage },
        answer("Resumed and finished: three entries, and the README describes the service."),
      ],
    },
  },

  /** Replies (or, as an interactive root, answers) with a Markdown report. */
  "reply-markdown": { agents: { "*": [answer(REPORT)] } },

  /**
   * A root that works at a watchable pace (about five seconds): a ledger, tool calls, then a
   * Markdown answer. Long enough to reload the page mid-run, or to see messages wait in the queue.
   */
  paced: {
    agents: {
      "*": [
        { text: "Planning the survey.", toolCalls: [{ name: "todo_write", args: surveyTodos(0) }], delayMs: 800, usage },
        { toolCalls: [{ name: "list_files", args: { path: "." } }], delayMs: 800, usage },
        { text: "The workspace is listed.", toolCalls: [{ name: "todo_write", args: surveyTodos(1) }], delayMs: 800, usage },
        { toolCalls: [{ name: "list_files", args: { path: "." } }], delayMs: 800, usage },
        { text: "Closing the ledger.", toolCalls: [{ name: "todo_write", args: surveyTodos(3) }], delayMs: 800, usage },
        answer(REPORT, 800),
      ],
    },
  },
} satisfies Record<string, Scenario>;
