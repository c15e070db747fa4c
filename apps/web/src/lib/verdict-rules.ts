/** C4's verdict rules, in the order they are tried; the first that fires decides. */
export const VERDICT_RULES = [
  { rule: "stop-abnormal", when: "the stop was abnormal (not reply or end_turn)", verdict: "INCOMPLETE" },
  { rule: "todo-open", when: "the todo ledger has open items", verdict: "INCOMPLETE" },
  { rule: "final-absent", when: "there is no final message", verdict: "INCOMPLETE" },
  { rule: "todo-clean", when: "a ledger was kept and every item is closed", verdict: "COMPLETE" },
  { rule: "no-ledger", when: "no ledger was kept: nothing to judge by", verdict: "UNVERIFIABLE" },
] as const;

export function ruleText(rule: string | null): string {
  return VERDICT_RULES.find((r) => r.rule === rule)?.when ?? "not judged yet";
}
