import { createSession, enqueue } from "@handoff/db";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../src/index";
import { useApi } from "./harness";

const api = useApi({ maxPayloadBytes: 4096 });

/** What a failed call must look like on the wire: a tRPC error with a client-error status. */
interface Outcome {
  ok: boolean;
  status: number;
  code?: string;
  httpStatus?: number;
  message?: string;
}

type Kind = "query" | "mutation" | "subscription";
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: Kind } }>).map(([path, p]) => ({
  path,
  kind: p._def.type,
}));

/** Calls one procedure over real HTTP, as a client that sends whatever it likes would. */
async function call(path: string, kind: Kind, input: unknown): Promise<Outcome> {
  const base = `${api.url}/api/trpc/${path}`;
  const auth = { authorization: `Bearer ${api.token}` };
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const abort = new AbortController();
  try {
    const res =
      kind === "mutation"
        ? await fetch(base, {
            method: "POST",
            headers: { ...auth, "content-type": "application/json" },
            body: input === undefined ? undefined : JSON.stringify(input),
            signal: abort.signal,
          })
        : await fetch(`${base}${query}`, {
            headers: { ...auth, ...(kind === "subscription" ? { accept: "text/event-stream" } : {}) },
            signal: abort.signal,
          });
    if (kind === "subscription" && res.headers.get("content-type")?.includes("text/event-stream")) {
      return await firstStreamOutcome(res);
    }
    const body = (await res.json()) as { error?: { message: string; data?: { code: string; httpStatus: number } } };
    if (!body.error) return { ok: true, status: res.status };
    return { ok: false, status: res.status, code: body.error.data?.code, httpStatus: body.error.data?.httpStatus, message: body.error.message };
  } finally {
    abort.abort();
  }
}

/**
 * A stream answers with a serialized error as its first event (a bad input), or it is open:
 * data arrives (tracked events carry an `id:`), or it waits quietly for live events.
 */
async function firstStreamOutcome(res: Response): Promise<Outcome> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const quiet = Date.now() + 1500;
  try {
    while (Date.now() < quiet) {
      const read = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), Math.max(0, quiet - Date.now())))]);
      if (!read || read.done) break;
      text += decoder.decode(read.value, { stream: true });
      const error = /event: serialized-error\ndata: (.*)\n/.exec(text);
      if (error) {
        const e = JSON.parse(error[1]!) as { message: string; data?: { code: string; httpStatus: number } };
        return { ok: false, status: res.status, code: e.data?.code, httpStatus: e.data?.httpStatus, message: e.message };
      }
      if (/(^|\n)id: /.test(text)) break;
    }
    return { ok: true, status: res.status };
  } finally {
    await reader.cancel().catch(() => {});
  }
}

let tables: string[] = [];
/** Rows in every table: a failed call must leave each count as it was. */
async function rowCounts(): Promise<Record<string, number>> {
  const sql = api.pg.db.sql;
  const [row] = await sql.unsafe(`SELECT ${tables.map((t) => `(SELECT count(*)::int FROM "${t}") AS "${t}"`).join(", ")}`);
  return row as Record<string, number>;
}

/** Ids that exist, so random inputs also reach the checks behind validation. */
const known = { sessionId: "", headlessId: "", agentId: "", messageId: "" };

beforeAll(async () => {
  const { db } = api.pg;
  tables = (
    await db.sql<{ name: string }[]>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_\\_%' ORDER BY 1`
  ).map((r) => r.name);
  const interactive = await createSession(db, { mode: "interactive" });
  const headless = await createSession(db, { mode: "headless" });
  const { messageId } = await enqueue(db, { sessionId: interactive.sessionId, kind: "prompt", payload: { text: "hi" } }, { maxPayloadBytes: 1 << 20 });
  Object.assign(known, { sessionId: interactive.sessionId, headlessId: headless.sessionId, agentId: interactive.rootAgentId, messageId });
});

const FIELDS = [
  "sessionId", "agentId", "messageId", "text", "mode", "profile", "title", "model", "baseUrl", "maxSteps", "prompt",
  "idempotencyKey", "lastEventId", "limit", "cursor", "status", "verdict", "search",
];

/** Strings that break naive code: NUL, lone surrogates, huge, SQL and path metacharacters, id look-alikes. */
const nastyString = fc.oneof(
  fc.string({ unit: fc.constantFrom("a", " ", "\u0000", "\ud800", "\udc00", "é", "😀", "%", "_", "\\", "'", "\n"), maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("", " ", "'; DROP TABLE sessions; --", "../../etc/passwd", "NaN", "-1", "1e309"),
  fc.constantFrom("ses_", "agt_", "msg_").chain((p) => fc.stringMatching(/^[0-9a-z]{0,30}$/).map((s) => p + s)),
  fc.integer({ min: 4000, max: 6000 }).map((n) => "x".repeat(n)),
);
/** Strings shaped like the list cursor (base64url of `createdAt|id`), with hostile parts. */
const cursorLike = fc
  .tuple(fc.constantFrom("2026-01-01 00:00:00.123456+00", "garbage", ""), nastyString)
  .map(([at, id]) => Buffer.from(`${at}|${id}`).toString("base64url"));
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 5, arbitrary: nastyString },
  { weight: 1, arbitrary: cursorLike },
  { weight: 2, arbitrary: fc.constantFrom(() => known.sessionId, () => known.headlessId, () => known.agentId, () => known.messageId).map((f) => f()) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.constantFrom(0, -1, 2 ** 53, 1e308)) },
  { weight: 1, arbitrary: fc.constantFrom("interactive", "headless", "general", "explore", "sim:demo", "http://127.0.0.1:1/v1", ["idle"], ["NONE"]) },
);
/** Arbitrary JSON, and objects built from the router's own field names with hostile values. */
const anyInput: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 5 }),
  fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), anyValue, { maxKeys: 4 }),
);

/** A valid input per procedure: one field changed or added reaches the checks behind validation. */
function validInput(path: string): Record<string, unknown> | undefined {
  const session = { sessionId: known.sessionId };
  const inputs: Record<string, Record<string, unknown> | undefined> = {
    "session.create": { mode: "interactive", prompt: "hi" },
    "session.prompt": { ...session, text: "hi", idempotencyKey: "retry-1" },
    "session.followup": { ...session, text: "more" },
    "session.steer": { ...session, text: "left", agentId: known.agentId },
    "session.cancel": { ...session, messageId: known.messageId },
    "session.get": session,
    "session.list": { limit: 5, search: "x", cursor: null, status: ["idle"], verdict: ["NONE"] },
    "session.messages": session,
    "session.events": session,
    "session.status": session,
    "agent.get": { agentId: known.agentId },
    "agent.tree": session,
    "agent.resume": { agentId: known.agentId },
  };
  return inputs[path];
}

function inputFor(path: string): fc.Arbitrary<unknown> {
  const own = Object.keys(validInput(path) ?? {});
  const field = own.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...own) }, fc.constantFrom(...FIELDS)) : fc.constantFrom(...FIELDS);
  const mutated = fc.record({ field, value: anyValue }).map(({ field, value }) => ({ ...validInput(path), [field]: value }));
  return fc.oneof(anyInput, { weight: 2, arbitrary: mutated });
}

describe("every tRPC procedure, given arbitrary JSON over HTTP", () => {
  it("lists the procedures it covers", () => {
    expect(procedures.length).toBeGreaterThan(10);
  });

  for (const { path, kind } of procedures) {
    it(`${path} answers success or a typed 4xx error, and a failure writes nothing`, { timeout: 60_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(inputFor(path), async (input) => {
          const before = kind === "mutation" ? await rowCounts() : null;
          const outcome = await call(path, kind, input);
          if (outcome.ok) return;
          expect(outcome.status, JSON.stringify(outcome)).toBeLessThan(500);
          expect(outcome.httpStatus, JSON.stringify(outcome)).toBeGreaterThanOrEqual(400);
          expect(outcome.httpStatus, JSON.stringify(outcome)).toBeLessThan(500);
          expect(outcome.code, JSON.stringify(outcome)).toMatch(/^[A-Z_]+$/);
          if (before) expect(await rowCounts()).toEqual(before);
        }),
        { numRuns: 60 },
      );
    });
  }
});
