import { appendFileSync } from "node:fs";
import { expect } from "vitest";
import type { FaultAudit } from "./audit";
import { RESULTS_ENV, type FaultResult } from "./fault-result";

/**
 * Records what the fault did to the runs (when `npm run faults:table` asked for results), then
 * asserts the promises held: no broken invariant, nothing lost, nothing twice, no untruthful
 * stop reason.
 */
export function expectSurvived(fault: string, injected: number, audit: FaultAudit): void {
  const file = process.env[RESULTS_ENV];
  if (file) {
    const result: FaultResult = {
      fault,
      injected,
      runs: audit.runs,
      messages: audit.messages,
      lost: audit.lost,
      duplicates: audit.duplicates,
      wrongStopReasons: audit.wrongStopReasons,
    };
    appendFileSync(file, `${JSON.stringify(result)}\n`);
  }
  expect(audit.violations, fault).toEqual([]);
  expect({ lost: audit.lost, duplicates: audit.duplicates, wrongStopReasons: audit.wrongStopReasons }, fault).toEqual({
    lost: 0,
    duplicates: 0,
    wrongStopReasons: 0,
  });
}
