import type { StoredEvent } from "@handoff/db";

/** An event as the API, the SDK and the dashboard see it. */
export interface WireEvent {
  seq: number;
  type: string;
  agentId: string | null;
  turnId: string | null;
  data: Record<string, unknown>;
  at: string;
}

export function toWire(e: StoredEvent): WireEvent {
  return {
    seq: e.seq,
    type: e.type,
    agentId: e.agentId,
    turnId: e.turnId,
    data: e.data,
    at: new Date(e.createdAt).toISOString(),
  };
}
