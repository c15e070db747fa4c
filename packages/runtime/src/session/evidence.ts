export type StopReason = "reply" | "end_turn" | "max_tokens" | "step_cap" | "no_reply" | "error" | "cancelled" | "refusal";
export type Verdict = "COMPLETE" | "INCOMPLETE" | "UNVERIFIABLE";
export type VerdictRule = "stop-abnormal" | "todo-open" | "final-absent" | "todo-clean" | "no-ledger";

export interface Evidence {
  finalMessagePresent: boolean;
  /** `null` when the agent never kept a ledger. */
  openTodoCount: number | null;
  stopReason: StopReason;
  verdict: Verdict;
  verdictRule: VerdictRule;
}

const NORMAL_STOPS: ReadonlySet<StopReason> = new Set(["reply", "end_turn"]);

/**
 * C4: the verdict from the run's own bookkeeping, first rule that fires. No length of any
 * text is consulted, ever; without a ledger there is nothing to judge by (UNVERIFIABLE).
 */
export function judge(facts: Omit<Evidence, "verdict" | "verdictRule">): Evidence {
  const rule: [Verdict, VerdictRule] = !NORMAL_STOPS.has(facts.stopReason)
    ? ["INCOMPLETE", "stop-abnormal"]
    : facts.openTodoCount !== null && facts.openTodoCount > 0
      ? ["INCOMPLETE", "todo-open"]
      : !facts.finalMessagePresent
        ? ["INCOMPLETE", "final-absent"]
        : facts.openTodoCount === 0
          ? ["COMPLETE", "todo-clean"]
          : ["UNVERIFIABLE", "no-ledger"];
  return { ...facts, verdict: rule[0], verdictRule: rule[1] };
}

/** Whitespace only is absent. */
export function present(text: string | null | undefined): boolean {
  return typeof text === "string" && text.trim().length > 0;
}
