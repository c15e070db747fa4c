import { readFile } from "node:fs/promises";
import { parseScenario } from "./parse-scenario";
import type { Scenario } from "./scenario";

/** Reads and validates a scenario JSON file; every error names the file. */
export async function loadScenarioFile(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    throw new Error(`${path}: cannot read scenario file: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: scenario file is not valid JSON: ${(e as Error).message}`);
  }
  return parseScenario(json, path);
}
