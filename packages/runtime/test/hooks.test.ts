import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { createHmac } from "node:crypto";
import { useTestDatabase } from "@handoff/db/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { startHookDeliverer } from "../src/index";
import { runPrompt, startHarness } from "./harness";

const pg = useTestDatabase();
const SECRET = "a-test-secret-of-some-length";

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  body: { event: string; agentId: string; parentId: string | null; profile: string; sessionId: string; evidence: unknown };
}

/** A webhook receiver on loopback that fails its first request with a 500. */
async function receiver() {
  const received: Received[] = [];
  let calls = 0;
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      calls++;
      if (calls === 1) {
        res.writeHead(500).end("not now");
        return;
      }
      received.push({ headers: req.headers, raw, body: JSON.parse(raw) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, calls: () => calls };
}

describe("hooks", () => {
  it("deliver signed SubagentStart, SubagentStop and Stop, retry a 500, and tell same-profile children apart", async () => {
    const hook = await receiver();
    const h = await startHarness(
      {
        agents: {
          general: [
            {
              toolCalls: [
                { name: "task", args: { profile: "explore", prompt: "left" } },
                { name: "task", args: { profile: "explore", prompt: "right" } },
              ],
            },
            { toolCalls: [{ name: "reply", args: { value: "both done" } }] },
          ],
          explore: [{ toolCalls: [{ name: "reply", args: { value: "seen" } }] }],
        },
      },
      { env: { HANDOFF_WEBHOOKS: JSON.stringify([{ url: hook.url, secret: SECRET }]) } },
    );
    const { db } = pg.current;
    const run = await runPrompt(db, h, { prompt: "go" });
    const deliverer = startHookDeliverer(db, { webhooks: h.runtime.runtime.webhooks, baseBackoffMs: 50, pollMs: 50 });
    try {
      await expect.poll(() => hook.received.length, { timeout: 10_000 }).toBe(5);
    } finally {
      await deliverer.stop();
    }
    for (const r of hook.received) {
      const expected = `sha256=${createHmac("sha256", SECRET).update(r.raw).digest("hex")}`;
      expect(r.headers["x-handoff-signature"]).toBe(expected);
      expect(r.body.sessionId).toBe(run.sessionId);
    }
    const byEvent = (event: string) => hook.received.filter((r) => r.body.event === event).map((r) => r.body);
    const starts = byEvent("SubagentStart");
    const stops = byEvent("SubagentStop");
    expect(starts).toHaveLength(2);
    expect(stops).toHaveLength(2);
    expect(new Set(starts.map((s) => s.agentId)).size).toBe(2);
    expect(new Set(stops.map((s) => s.agentId))).toEqual(new Set(starts.map((s) => s.agentId)));
    for (const s of stops) {
      expect(s).toMatchObject({ profile: "explore", parentId: run.rootAgentId });
      expect(s.evidence).toMatchObject({ finalMessagePresent: true, openTodoCount: null, stopReason: "reply", verdict: "UNVERIFIABLE" });
    }
    expect(byEvent("Stop")).toEqual([expect.objectContaining({ agentId: run.rootAgentId, parentId: null, profile: "general" })]);
    // The 500 was retried, and every attempt is on record.
    expect(hook.calls()).toBe(6);
    const attempts = await db.sql<{ statusCode: number }[]>`
      SELECT a.status_code AS "statusCode" FROM hook_attempts a JOIN hook_deliveries d ON d.id = a.delivery_id
      WHERE d.session_id = ${run.sessionId} ORDER BY a.at`;
    expect(attempts.map((a) => a.statusCode).sort()).toEqual([204, 204, 204, 204, 204, 500]);
    const deliveries = await db.sql`SELECT status FROM hook_deliveries WHERE session_id = ${run.sessionId}`;
    expect(deliveries.every((d) => d.status === "delivered")).toBe(true);
  });

  it("refuse a webhook configuration with a short secret, naming the field", async () => {
    const { parseWebhooks } = await import("../src/hooks/hook-config");
    expect(() => parseWebhooks(JSON.stringify([{ url: "http://127.0.0.1:1/x", secret: "short" }]))).toThrow(
      "HANDOFF_WEBHOOKS[0].secret: use a secret of at least 16 characters",
    );
    expect(() => parseWebhooks("{not json")).toThrow("HANDOFF_WEBHOOKS is not valid JSON");
  });
});
