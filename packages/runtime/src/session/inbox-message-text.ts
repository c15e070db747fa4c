import type { InboxMessage } from "@handoff/db";

/** How an admitted inbox message reads to the model, as a user message. */
export function inboxMessageText(message: InboxMessage): string {
  const payload = (message.payload ?? {}) as { text?: unknown };
  const text = typeof payload.text === "string" ? payload.text : JSON.stringify(message.payload);
  switch (message.kind) {
    case "steer":
      return `[Steering from the user, received while you were working]\n${text}`;
    case "context":
      return `[Context]\n${text}`;
    default:
      return text;
  }
}
