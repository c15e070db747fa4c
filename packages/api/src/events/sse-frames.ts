/**
 * Server-sent events as tRPC's `sseStreamProducer` writes them (and `httpSubscriptionLink`
 * reads them), byte for byte: each field on a line of its own, then a blank line and one more
 * newline.
 */
const encoder = new TextEncoder();

function frame(fields: { event?: string; data: string; id?: string }): Uint8Array {
  let text = "";
  if (fields.event !== undefined) text += `event: ${fields.event}\n`;
  text += `data: ${fields.data}\n`;
  if (fields.id !== undefined) text += `id: ${fields.id}\n`;
  return encoder.encode(text + "\n\n");
}

export const connectedFrame = (clientOptions: unknown) => frame({ event: "connected", data: JSON.stringify(clientOptions) });
export const PING_FRAME = frame({ event: "ping", data: "" });
export const RETURN_FRAME = frame({ event: "return", data: "" });
export const errorFrame = (shape: unknown) => frame({ event: "serialized-error", data: JSON.stringify(shape) });
/** An item without an id (none of ours: every stream resumes by id); tRPC then restores the last id. */
export const untrackedFrames = (json: string, lastEventId: string | null) =>
  lastEventId === null ? [frame({ data: json })] : [frame({ data: json, id: "" }), frame({ event: "restore-id", data: "", id: lastEventId })];

/**
 * A tracked item's frame. Streams woken by one notification share one read of the session's
 * events (EventHub.read), so they yield the very same event object: it is serialized once for
 * all of them, not once per subscriber.
 */
const encoded = new WeakMap<object, { id: string; bytes: Uint8Array }>();

export function trackedFrame(id: string, data: unknown, serialize: (v: unknown) => unknown): Uint8Array {
  const shared = typeof data === "object" && data !== null;
  const hit = shared ? encoded.get(data) : undefined;
  if (hit && hit.id === id) return hit.bytes;
  const bytes = frame({ data: JSON.stringify(serialize(data)), id });
  if (shared) encoded.set(data, { id, bytes });
  return bytes;
}
