import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { claimSessionById, createSession } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinTools } from "../src/index";
import type { ToolContext } from "../src/tools/tool-context";

const pg = useTestDatabase();

let base = "";
let ctx: ToolContext;

beforeAll(async () => {
  const { db } = pg.current;
  base = await mkdtemp(path.join(os.tmpdir(), "handoff-tool-args-"));
  const workspaceDir = path.join(base, "ws");
  await mkdir(workspaceDir);
  await mkdir(path.join(base, "outside"));
  await writeFile(path.join(base, "outside", "secret.txt"), "outside");
  // What agents meet in real workspaces: a binary file, NUL bytes and invalid UTF-8 included.
  await writeFile(path.join(workspaceDir, "blob.bin"), Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
  // todo_write writes under the session's lease, like any tool of a running agent.
  const { sessionId, rootAgentId } = await createSession(db, { mode: "headless" });
  const lease = (await claimSessionById(db, sessionId, "wrk_property", 600_000))!;
  ctx = {
    db,
    lease,
    sessionId,
    agentId: rootAgentId,
    turnId: "trn_property",
    workspaceDir,
    maxOutputBytes: 2048,
    signal: new AbortController().signal,
    call: { stepId: "stp_property", callId: "call_1" },
    // `task` past its argument checks: a service that answers as the real one would.
    subagents: {
      spawn: async (args) => `Started subagent of ${args.profile}`,
      resume: async (args) => `Resumed ${args.agentId}`,
    },
  };
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A few paths, so calls collide: a file written here is listed, edited, grepped, or used as a directory there. */
const pathLike = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("a", "a/b", "a/b/c.txt", "b.txt", "notes/x.md", ".", "./a", "a/", "a//b") },
  { weight: 1, arbitrary: fc.constant("blob.bin") },
  { weight: 2, arbitrary: fc.constantFrom("..", "../outside/secret.txt", "a/../../outside", "/etc/passwd", "/", "", " ", "\u0000", "a\u0000b", "~/x") },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
/** Short contents: a hostile `grep` pattern cannot make a run take long on them. */
const content = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("", "needle\nhay\nneedle", "a".repeat(3000)));
const value: fc.Arbitrary<unknown> = fc.oneof(
  pathLike,
  content,
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom("(", "[", "a{2,1}", "(?<", "\\", ".*", "needle", "(a+)+$"),
  fc.oneof(fc.integer(), fc.double(), fc.boolean()),
);

const todos = fc.array(
  fc.record(
    {
      id: fc.oneof(fc.constantFrom("1", "2", "\u0000", "\udc00"), fc.string({ maxLength: 5 })),
      content: fc.oneof(content, value, fc.constantFrom("a\u0000b", "x\ud800")),
      status: fc.oneof(fc.constantFrom("pending", "completed", "in_progress", "cancelled"), value),
    },
    { requiredKeys: [] },
  ),
  { maxLength: 4 },
);
/** A plausible value for a parameter, by its name: most calls get past validation to the work itself. */
const byName: Record<string, fc.Arbitrary<unknown>> = {
  path: pathLike,
  content,
  oldString: fc.oneof(content, fc.constantFrom("needle", "a")),
  newString: content,
  pattern: fc.oneof(fc.constantFrom("(", "[", "a{2,1}", "(?<", "\\", ".*", "needle", "^$"), fc.string({ maxLength: 6 })),
  offset: fc.integer({ min: -2, max: 10 }),
  limit: fc.integer({ min: -2, max: 6000 }),
  todos,
  value: fc.jsonValue({ maxDepth: 3 }),
};

/** Arguments for one tool: arbitrary JSON, or objects of its own parameters with plausible or hostile values. */
function argsFor(tool: string): fc.Arbitrary<unknown> {
  const schema = builtinTools[tool]!.inputSchema as { properties?: Record<string, unknown> };
  const keys = Object.keys(schema.properties ?? {});
  const shaped = fc.record(
    Object.fromEntries(keys.map((k) => [k, fc.oneof({ weight: 4, arbitrary: byName[k] ?? value }, { weight: 1, arbitrary: value })])),
    { requiredKeys: [] },
  );
  const extra = fc.tuple(shaped, fc.string({ maxLength: 6 }), value).map(([args, k, v]) => ({ ...args, [k]: v }));
  return fc.oneof({ weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 6, arbitrary: shaped }, { weight: 1, arbitrary: extra });
}

describe("every built-in tool, given arbitrary arguments", () => {
  for (const name of Object.keys(builtinTools)) {
    it(`${name} returns a result and never throws`, async () => {
      await fc.assert(
        fc.asyncProperty(argsFor(name), fc.boolean(), async (args, withSchema) => {
          const result = await builtinTools[name]!.run(args, {
            ...ctx,
            outputSchema: withSchema ? { type: "object", required: ["answer"] } : undefined,
          });
          expect(typeof result.isError).toBe("boolean");
          expect(typeof result.output === "string" || typeof result.output === "object").toBe(true);
          expect(JSON.stringify(result.output).length).toBeLessThan(ctx.maxOutputBytes * 2 + 200);
          // The result is recorded as jsonb: Postgres must be able to store it (no NUL, no lone surrogate).
          await pg.current.db.sql`SELECT ${JSON.stringify(result.output)}::text::jsonb`;
        }),
        { numRuns: 100 },
      );
    });
  }

  it("left everything outside the workspace as it was", async () => {
    expect((await readdir(base)).sort()).toEqual(["outside", "ws"]);
    expect(await readdir(path.join(base, "outside"))).toEqual(["secret.txt"]);
  });
});
