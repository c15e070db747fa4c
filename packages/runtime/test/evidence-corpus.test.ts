import { useTestDatabase } from "@handoff/db/testing";
import { describe, expect, it } from "vitest";
import { evidenceCorpus } from "./corpus/evidence-corpus";
import { corpusProfiles, reportCorpus, runCorpus } from "./corpus/run-corpus";
import { startHarness } from "./harness";

const pg = useTestDatabase();

describe("structural completion evidence (C4) over a labelled corpus", () => {
  it("gives every one of at least 60 scripted subagent runs the verdict and rule of its label", async () => {
    expect(evidenceCorpus.length).toBeGreaterThanOrEqual(60);
    const h = await startHarness({ agents: {} }, { profiles: corpusProfiles });
    const outcomes = await runCorpus(pg.current.db, h.sim, h.runtime, evidenceCorpus);
    const report = reportCorpus(outcomes);
    expect(report.mismatches.map((m) => `${m.case.name}: ${m.verdict} (${m.rule})`)).toEqual([]);
    expect(report.incompleteCaught).toBe(report.incompleteLabelled);
    expect(report.falseInterventions).toBe(0);
    expect(report.unverifiable).toBe(evidenceCorpus.filter((c) => c.label === "UNVERIFIABLE").length);
    // C3: whatever happened, the parent was told something, with the evidence attached.
    for (const o of outcomes) {
      expect(o.parentSaw, o.case.name).toContain(`- verdict: ${o.case.label} (${o.case.rule})`);
      expect(o.parentSaw, o.case.name).toContain("call task with resume");
    }
  }, 120_000);
});
