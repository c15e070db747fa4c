import { newId, type Tx } from "@handoff/db";
import type { Evidence } from "../session/evidence";
import type { HookEvent, Webhook } from "./hook-config";

/** What every hook carries (C4): who the agent is, and the evidence of how it ended. */
export interface HookPayload {
  event: HookEvent;
  sessionId: string;
  /** The agent instance id: tells parallel subagents of one profile apart. */
  agentId: string;
  parentId: string | null;
  profile: string;
  status: string;
  failureTag: string | null;
  evidence: Evidence | null;
  at: string;
}

/** Writes one outbox row per configured webhook that wants the event, in the caller's transaction. */
export async function enqueueHooks(tx: Tx, webhooks: Webhook[], payload: Omit<HookPayload, "at">): Promise<void> {
  const body = { ...payload, at: new Date().toISOString() };
  for (const hook of webhooks) {
    if (hook.events && !hook.events.includes(payload.event)) continue;
    await tx`
      INSERT INTO hook_deliveries (id, session_id, agent_id, event, url, payload)
      VALUES (${newId("hk")}, ${payload.sessionId}, ${payload.agentId}, ${payload.event}, ${hook.url},
              ${JSON.stringify(body)}::text::jsonb)`;
  }
  if (webhooks.length > 0) await tx`SELECT pg_notify('handoff_hooks', ${payload.sessionId})`;
}
