import { z } from "zod";

const id = (prefix: string, what: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `not a ${what} id (expected ${prefix}_…)`);

export const SessionId = id("ses", "session");
export const AgentId = id("agt", "agent");
export const MessageId = id("msg", "message");
export const IdempotencyKey = z.string().min(1).max(200);
