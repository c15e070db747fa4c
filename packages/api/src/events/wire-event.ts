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

/**
 * Streams woken by one notification share one read (EventHub.read) and so the same stored
 * events: they share the wire form too, which lets the SSE writer serialize it once for all.
 */
const wireOf = new WeakMap<StoredEvent, WireEvent>();

export function toWire(e: StoredEvent): WireEvent {
  let wire = wireOf.get(e);
  if (!wire) {
    wire = wireFrom(e);
    wireOf.set(e, wire);
  }
  return wire;
}

function wireFrom(e: StoredEvent): WireEvent {
  return {
    seq: e.seq,
    type: e.type,
    agentId: e.agentId,
    turnId: e.turnId,
    data: e.data,
    at: new Date(e.createdAt).toISOString(),
  };
}
