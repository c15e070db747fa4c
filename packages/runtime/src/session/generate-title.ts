import { generateText, type LanguageModel } from "ai";
import { appendEvents, fencedTransaction } from "@handoff/db";
import type { AgentRow } from "./agent-row";
import type { TurnContext } from "./turn-context";

/**
 * Housekeeping: a short title for an untitled session, from its first prompt. It is marked
 * `x-handoff-purpose: housekeeping` and is not a model step: C2's cap never counts it.
 * A title is a nicety, so a failure is logged and forgotten.
 */
export async function generateTitle(t: TurnContext, agent: AgentRow, model: LanguageModel, prompt: string): Promise<void> {
  try {
    const { text } = await generateText({
      model,
      system: "Write a title of at most six words for a conversation that starts with the user's message. Answer with the title only.",
      messages: [{ role: "user", content: prompt.slice(0, 2000) }],
      headers: {
        "x-handoff-session": agent.sessionId,
        "x-handoff-agent": agent.id,
        "x-handoff-profile": agent.profile,
        "x-handoff-purpose": "housekeeping",
      },
      abortSignal: AbortSignal.any([t.ctx.signal, AbortSignal.timeout(15_000)]),
      maxRetries: 1,
    });
    const title = text.trim().replace(/^["']|["']$/g, "").slice(0, 120);
    if (!title) return;
    await fencedTransaction(t.ctx.db, t.ctx.lease, async (tx) => {
      const set = await tx`UPDATE sessions SET title = ${title} WHERE id = ${agent.sessionId} AND title IS NULL RETURNING id`;
      if (set.length > 0) await appendEvents(tx, agent.sessionId, [{ type: "session.title", data: { title } }]);
    });
  } catch (e) {
    if (t.ctx.signal.aborted) throw e;
    t.ctx.log.warn({ sessionId: agent.sessionId, error: (e as Error).message }, "title generation failed");
  }
}
