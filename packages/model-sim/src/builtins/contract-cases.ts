import type { Scenario, Step } from "../scenario/scenario";

/** A small step cost, so usage totals in tests are easy to add up. */
const usage = { input: 100, output: 20 };

const reply = (value: unknown): Step => ({ toolCalls: [{ name: "reply", args: { value } }], usage });

/** Every profile plays the same list: the root and any child behave alike. */
const everyone = (...steps: Step[]): Scenario => ({ agents: { "*": steps } });

/** One scenario per contract case in DESIGN.md; the package README says what each one checks. */
export const contractCases = {
  /** C1: the reply value is an object and must stay one for machines. */
  "reply-object": everyone(reply({ status: "ok", files: 3, notes: ["a.md", "b.md"] })),

  /** C1: a string that looks like JSON stays a string; it is never parsed. */
  "reply-string-brace": everyone(reply('{"status": "ok"} is what the config said')),

  /** C1: answers in prose on every request and never replies, so a returning agent runs out of nudges. */
  "prose-forever": everyone({ text: "Here is what I found: everything looks fine.", usage, repeatForever: true }),

  /** C2: calls a tool on every request, so only the step cap ends the agent. */
  "always-tools": everyone({ toolCalls: [{ name: "list_files", args: { path: "." } }], usage, repeatForever: true }),

  /** C2: three tool calls, then text on every later request (the answer at the cap). */
  "cap-text": everyone(
    { toolCalls: [{ name: "list_files", args: { path: "." } }], usage },
    { toolCalls: [{ name: "list_files", args: { path: "." } }], usage },
    { toolCalls: [{ name: "list_files", args: { path: "." } }], usage },
    { text: "Final answer at the step cap: the workspace holds three files.", usage, repeatForever: true },
  ),

  /** C4 / ACP: partial text cut by the token limit (`max_tokens`). */
  "length-cut": everyone({ text: "The survey found three areas that need attention. First, the", finish: "length", usage }),

  /** C4 / ACP: the provider's content filter stopped the answer (`refusal`). */
  "content-filter": everyone({ text: "I can't help with", finish: "content_filter", usage }),

  /** Retry: a 429 asking for one second, then the answer (a reply when one is offered). */
  "retry-429": everyone(
    { error: { status: 429, retryAfterSeconds: 1 } },
    {
      text: "Recovered after the rate limit.",
      toolCalls: [{ name: "reply", args: { value: "Recovered after the rate limit." }, ifOffered: true }],
      usage,
    },
  ),

  /**
   * C1: against an output schema requiring `{ "answer": string }`, the first reply does not
   * conform (no `answer`), the second does.
   */
  "schema-mismatch": everyone(reply({ result: 42 }), reply({ answer: "42" })),
} satisfies Record<string, Scenario>;
