import type { Step } from "@handoff/model-sim";

/** One scripted subagent run, labelled with the verdict (and rule) its bookkeeping must yield. */
export interface CorpusCase {
  name: string;
  category: string;
  label: "COMPLETE" | "INCOMPLETE" | "UNVERIFIABLE";
  rule: "stop-abnormal" | "todo-open" | "final-absent" | "todo-clean" | "no-ledger";
  /** The child's profile: `explore`, or `capped` (maxSteps 3) for step-cap cases. */
  profile: "explore" | "capped";
  steps: Step[];
}

type Status = "pending" | "in_progress" | "completed" | "cancelled";
const ledger = (...statuses: Status[]): Step => ({
  toolCalls: [
    { name: "todo_write", args: { todos: statuses.map((status, i) => ({ id: String(i + 1), content: `item ${i + 1}`, status })) } },
  ],
});
const reply = (value: unknown): Step => ({ toolCalls: [{ name: "reply", args: { value } }] });
const look: Step = { toolCalls: [{ name: "list_files", args: { path: "." } }] };
const long = (n: number) => "The analysis continues with another observation about the module layout. ".repeat(n);

const cases: CorpusCase[] = [];
const add = (c: Omit<CorpusCase, "profile"> & { profile?: CorpusCase["profile"] }) => cases.push({ profile: "explore", ...c });

// Replies with a clean ledger: COMPLETE, however short the reply.
const cleanLedgers: Status[][] = [["completed"], ["completed", "completed"], ["completed", "cancelled"], ["completed", "completed", "completed"], ["cancelled"]];
const replyValues: unknown[] = ["No.", "Found 3 files.", { files: 3 }, ["a", "b"], long(20)];
cleanLedgers.forEach((statuses, i) => {
  add({ name: `clean-${i + 1}a`, category: "reply, clean ledger", label: "COMPLETE", rule: "todo-clean", steps: [ledger(...statuses), reply(replyValues[i])] });
  add({
    name: `clean-${i + 1}b`,
    category: "reply, clean ledger",
    label: "COMPLETE",
    rule: "todo-clean",
    steps: [ledger("pending", ...statuses.slice(1)), look, ledger(...statuses), reply(replyValues[(i + 2) % 5])],
  });
});

// Replies with open todos: INCOMPLETE, however confident the reply.
const openLedgers: Status[][] = [["pending"], ["in_progress"], ["completed", "pending"], ["completed", "in_progress", "pending"]];
openLedgers.forEach((statuses, i) => {
  add({ name: `open-${i + 1}a`, category: "reply, open todos", label: "INCOMPLETE", rule: "todo-open", steps: [ledger(...statuses), reply("All done!")] });
  add({ name: `open-${i + 1}b`, category: "reply, open todos", label: "INCOMPLETE", rule: "todo-open", steps: [ledger(...statuses), look, reply({ summary: long(5) })] });
});

// Length cuts: INCOMPLETE whether the cut text is short or padded far past any length threshold.
[3, 40, 200, 600].forEach((n, i) => {
  add({ name: `length-${i + 1}a`, category: "length cut", label: "INCOMPLETE", rule: "stop-abnormal", steps: [{ text: long(n).slice(0, n * 10), finish: "length" }] });
  add({ name: `length-${i + 1}b`, category: "length cut", label: "INCOMPLETE", rule: "stop-abnormal", steps: [ledger("completed"), look, { text: long(n), finish: "length" }] });
});

// Premature stops (text, no reply; nudges unanswered): a short final, a mid-thought, a blank one.
const premature: [string, string][] = [
  ["short", "The gate passes with the marker detected. Now the S6 tests:"],
  ["mid-thought", "Now let me confirm how per-wave reportJson gets nodeReports..."],
  ["blank", "   \n"],
];
premature.forEach(([kind, text]) => {
  add({ name: `premature-${kind}-1`, category: `premature stop (${kind})`, label: "INCOMPLETE", rule: "stop-abnormal", steps: [{ text }, { text }, { text }] });
  add({ name: `premature-${kind}-2`, category: `premature stop (${kind})`, label: "INCOMPLETE", rule: "stop-abnormal", steps: [look, { text }, { text }, { text }] });
  add({
    name: `premature-${kind}-3`,
    category: `premature stop (${kind})`,
    label: "INCOMPLETE",
    rule: "stop-abnormal",
    steps: [ledger("completed"), { text }, { text }, { text }],
  });
});

// No reply after nudges: long, confident prose every time.
for (let i = 1; i <= 6; i++) {
  const text = i % 2 ? `Summary: everything checks out. ${long(i * 3)}` : "Here is my complete and final report: all good.";
  add({ name: `no-reply-${i}`, category: "no reply after nudges", label: "INCOMPLETE", rule: "stop-abnormal", steps: [{ text, repeatForever: true }] });
}

// Model errors, before or after some work.
[400, 401, 404, 422, 400, 413].forEach((status, i) => {
  const before: Step[] = i % 2 ? [ledger("in_progress"), { text: "Partial findings so far", toolCalls: [{ name: "list_files", args: {} }] }] : [];
  add({ name: `error-${i + 1}`, category: "model error", label: "INCOMPLETE", rule: "stop-abnormal", steps: [...before, { error: { status } }] });
});

// Step caps: always calls tools, so only the cap ends it (profile `capped`, maxSteps 3).
for (let i = 1; i <= 6; i++) {
  const steps: Step[] = i % 2 ? [ledger("completed")] : [];
  steps.push({ text: i > 3 ? "Still working on it." : "", toolCalls: [{ name: "list_files", args: { path: "." } }], repeatForever: true });
  add({ name: `step-cap-${i}`, category: "step cap", label: "INCOMPLETE", rule: "stop-abnormal", profile: "capped", steps });
}

// Replies without a ledger: nothing structural to judge by.
const bare: unknown[] = ["No.", "Yes — the config is valid.", long(30), { answer: 42 }, [], "{ not json }", "Done.", { nested: { deep: true } }];
bare.forEach((value, i) => {
  add({ name: `no-ledger-${i + 1}`, category: "reply, no ledger", label: "UNVERIFIABLE", rule: "no-ledger", steps: i % 2 ? [look, reply(value)] : [reply(value)] });
});

export const evidenceCorpus: readonly CorpusCase[] = cases;
