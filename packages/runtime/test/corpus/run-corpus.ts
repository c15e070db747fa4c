import { createSession, enqueue, type Db } from "@handoff/db";
import type { ModelSim } from "@handoff/model-sim";
import { ownSession, type RuntimeHandle } from "../../src/index";
import type { CorpusCase } from "./evidence-corpus";

export interface CorpusOutcome {
  case: CorpusCase;
  verdict: string | null;
  rule: string | null;
  stopReason: string | null;
  /** What the parent's model was told about the child (must never be empty). */
  parentSaw: string;
}

/** Profiles the corpus needs beside the built-ins. */
export const corpusProfiles = {
  capped: "---\nname: capped\nmaxSteps: 3\ntools: [todo_write, list_files]\n---\nWork until done.",
};

/**
 * Runs each case as a real subagent: a headless root spawns one child of the case's profile,
 * which plays the case's script on model-sim; the verdict is read from the child's row.
 */
export async function runCorpus(db: Db, sim: ModelSim, runtime: RuntimeHandle, cases: readonly CorpusCase[]): Promise<CorpusOutcome[]> {
  const outcomes: CorpusOutcome[] = [];
  for (const c of cases) {
    sim.setScenario({
      agents: {
        general: [
          { toolCalls: [{ name: "task", args: { profile: c.profile, prompt: `case ${c.name}` } }] },
          { toolCalls: [{ name: "reply", args: { value: "parent done" } }] },
        ],
        [c.profile]: c.steps,
      },
    });
    const { sessionId, rootAgentId } = await createSession(db, { mode: "headless", title: c.name });
    const owner = await ownSession(db, sessionId, runtime.driver);
    if (!owner) throw new Error(`could not own ${sessionId}`);
    await enqueue(db, { sessionId, kind: "prompt", payload: { text: "run the case" } }, { maxPayloadBytes: 1 << 20 });
    await owner.driveToIdle();
    await owner.release();
    const [child] = await db.sql<{ id: string; verdict: string | null; rule: string | null; stopReason: string | null }[]>`
      SELECT id, verdict, verdict_rule AS rule, stop_reason AS "stopReason" FROM agents WHERE parent_id = ${rootAgentId}`;
    const [result] = await db.sql<{ output: unknown }[]>`
      SELECT result AS output FROM tool_calls WHERE agent_id = ${rootAgentId} AND name = 'task'`;
    outcomes.push({
      case: c,
      verdict: child?.verdict ?? null,
      rule: child?.rule ?? null,
      stopReason: child?.stopReason ?? null,
      parentSaw: typeof result?.output === "string" ? result.output : JSON.stringify(result?.output ?? ""),
    });
  }
  return outcomes;
}

export interface CorpusReport {
  runs: number;
  incompleteLabelled: number;
  incompleteCaught: number;
  completeLabelled: number;
  falseInterventions: number;
  unverifiable: number;
  mismatches: CorpusOutcome[];
}

/** Recall on INCOMPLETE, false interventions on COMPLETE, and the UNVERIFIABLE count. */
export function reportCorpus(outcomes: CorpusOutcome[]): CorpusReport {
  const incomplete = outcomes.filter((o) => o.case.label === "INCOMPLETE");
  const complete = outcomes.filter((o) => o.case.label === "COMPLETE");
  return {
    runs: outcomes.length,
    incompleteLabelled: incomplete.length,
    incompleteCaught: incomplete.filter((o) => o.verdict === "INCOMPLETE").length,
    completeLabelled: complete.length,
    falseInterventions: complete.filter((o) => o.verdict === "INCOMPLETE").length,
    unverifiable: outcomes.filter((o) => o.verdict === "UNVERIFIABLE").length,
    mismatches: outcomes.filter((o) => o.verdict !== o.case.label || o.rule !== o.case.rule),
  };
}
