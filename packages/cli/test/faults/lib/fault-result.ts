/** One fault test's outcome, as `npm run faults:table` reads it. */
export interface FaultResult {
  fault: string;
  /** How many times the fault was injected (processes killed, restarts, scripted errors, …). */
  injected: number;
  runs: number;
  messages: number;
  lost: number;
  duplicates: number;
  wrongStopReasons: number;
}

/** Where the fault tests append their results (JSON lines); unset in ordinary runs, which then write nothing. */
export const RESULTS_ENV = "HANDOFF_FAULT_RESULTS";
