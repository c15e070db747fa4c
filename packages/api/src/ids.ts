import { isStorableText } from "@handoff/db";
import { z } from "zod";

/**
 * Text that PostgreSQL can store: no NUL character and no unpaired surrogate (either would
 * fail deep in the database as a 500). Refused here as a typed BAD_REQUEST.
 */
export const StorableText = z.string().refine(isStorableText, "must not contain NUL characters or unpaired surrogates");

const id = (prefix: string, what: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `not a ${what} id (expected ${prefix}_…)`);

export const SessionId = id("ses", "session");
export const AgentId = id("agt", "agent");
export const MessageId = id("msg", "message");
export const IdempotencyKey = z.string().min(1).max(200).pipe(StorableText);
