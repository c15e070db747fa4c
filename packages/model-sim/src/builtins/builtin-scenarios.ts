import type { Scenario } from "../scenario/scenario";
import { contractCases } from "./contract-cases";
import { dashboardCases } from "./dashboard-cases";
import { demo } from "./demo";

/** Scenarios that ship with model-sim, by name (`sim:NAME` plays one in-process). */
export const builtinScenarios: Readonly<Record<string, Scenario>> = Object.freeze({ demo, ...contractCases, ...dashboardCases });

/** A built-in scenario by name; an unknown name lists the known ones. */
export function getBuiltinScenario(name: string): Scenario {
  const scenario = Object.hasOwn(builtinScenarios, name) ? builtinScenarios[name] : undefined;
  if (scenario === undefined) {
    const known = Object.keys(builtinScenarios).join(", ");
    throw new Error(`unknown built-in scenario "${name}"; known: ${known}`);
  }
  return structuredClone(scenario);
}
