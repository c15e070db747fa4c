import { createHmac } from "node:crypto";

/** The `X-Handoff-Signature` header value for a body. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}
