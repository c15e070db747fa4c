import { z } from "zod";

export const HookEvent = z.enum(["SubagentStart", "SubagentStop", "Stop"]);
export type HookEvent = z.infer<typeof HookEvent>;

export const Webhook = z.strictObject({
  url: z.string().url(),
  /** Signs each body: `X-Handoff-Signature: sha256=<hex HMAC-SHA256(secret, body)>`. */
  secret: z.string().min(16, "use a secret of at least 16 characters"),
  /** Which events to send; all of them when absent. */
  events: z.array(HookEvent).optional(),
});
export type Webhook = z.infer<typeof Webhook>;

/** `HANDOFF_WEBHOOKS`: a JSON array of webhooks. A bad value fails loudly, naming the field. */
export function parseWebhooks(json: string | undefined): Webhook[] {
  if (!json) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new Error(`HANDOFF_WEBHOOKS is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = z.array(Webhook).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [index, ...field] = issue.path;
    const where = `${index === undefined ? "" : `[${String(index)}]`}${field.length ? `.${field.join(".")}` : ""}`;
    throw new Error(`HANDOFF_WEBHOOKS${where}: ${issue.message}`);
  }
  return parsed.data;
}
