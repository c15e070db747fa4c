import type { Sql, Tx } from "@handoff/db";
import type { Evidence } from "../session/evidence";
import { openTodos, renderResumeHint, type OpenTodo } from "./resume-hint";

export interface ChildFacts {
  agentId: string;
  profile: string;
  status: string;
  stopReason: string | null;
  stopDetail: string | null;
  failureTag: string | null;
  replyValue: unknown;
  partialText: string | null;
  evidence: Evidence;
  openTodos: OpenTodo[];
}

/** How much of a failed child's last text the parent sees (its end, where it was cut off). */
const PARTIAL_CHARS = 4000;

/**
 * A child's result as its model parent reads it. C1: a reply as prose (a string as is, an
 * object or array pretty-printed). C3: otherwise why it stopped, and its last written text
 * marked as partial. Always: the evidence (C4) and the resume hint. Never empty.
 */
export function renderChildResult(c: ChildFacts): string {
  const head = `Subagent ${c.agentId} (${c.profile}) ${c.stopReason === "reply" ? "replied" : `stopped: ${c.status}`}.`;
  const body: string[] = [];
  if (c.stopReason === "reply") {
    body.push(typeof c.replyValue === "string" ? c.replyValue : JSON.stringify(c.replyValue, null, 2));
  } else {
    body.push(
      c.stopReason === "error"
        ? `It stopped with an error before giving a final answer: ${c.stopDetail ?? "unknown error"}`
        : `It ended without a final answer (${c.failureTag ?? c.stopReason})${c.stopDetail ? `: ${c.stopDetail}` : ""}.`,
    );
    if (c.partialText?.trim()) {
      const partial = c.partialText.length > PARTIAL_CHARS ? `…${c.partialText.slice(-PARTIAL_CHARS)}` : c.partialText;
      body.push(`Its last written text (partial — not a result):\n<partial>\n${partial}\n</partial>`);
    } else {
      body.push("It wrote no text.");
    }
  }
  const e = c.evidence;
  const evidence = [
    "Evidence:",
    `- final message present: ${e.finalMessagePresent}`,
    `- open todos: ${e.openTodoCount === null ? "no ledger kept" : e.openTodoCount}`,
    `- stop reason: ${e.stopReason}`,
    `- verdict: ${e.verdict} (${e.verdictRule})`,
  ].join("\n");
  const hint = renderResumeHint({ agentId: c.agentId, stopReason: c.stopReason, failureTag: c.failureTag, openTodos: c.openTodos });
  // Evidence and hint first: if a long reply is cut to the tool output limit, they survive.
  return [head, "", evidence, "", hint, "", ...body].join("\n");
}

/** Reads an ended child's facts from its row and ledger. */
export async function loadChildFacts(sql: Sql | Tx, agentId: string): Promise<ChildFacts> {
  const [row] = await sql<
    (Omit<ChildFacts, "evidence" | "openTodos"> & {
      finalMessagePresent: boolean | null;
      openTodoCount: number | null;
      verdict: Evidence["verdict"] | null;
      verdictRule: Evidence["verdictRule"] | null;
    })[]
  >`
    SELECT id AS "agentId", profile, status, stop_reason AS "stopReason", stop_detail AS "stopDetail",
           failure_tag AS "failureTag", reply_value AS "replyValue", partial_text AS "partialText",
           final_message_present AS "finalMessagePresent", open_todo_count AS "openTodoCount", verdict,
           verdict_rule AS "verdictRule"
    FROM agents WHERE id = ${agentId}`;
  if (!row) throw new Error(`agent ${agentId} does not exist`);
  const { finalMessagePresent, openTodoCount, verdict, verdictRule, ...facts } = row;
  return {
    ...facts,
    evidence: {
      finalMessagePresent: finalMessagePresent ?? false,
      openTodoCount,
      stopReason: (row.stopReason ?? "error") as Evidence["stopReason"],
      verdict: verdict ?? "INCOMPLETE",
      verdictRule: verdictRule ?? "stop-abnormal",
    },
    openTodos: await openTodos(sql, agentId),
  };
}
