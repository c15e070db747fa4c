import type { Scenario, Step } from "../scenario/scenario";
import type { AgentIdentity } from "./agent-identity";

/** What an agent gets once its list has run out (DESIGN.md, "Scenario file"). */
export const END_OF_SCRIPT: Step = Object.freeze({ text: "", finish: "stop" });

/** The scenario plus one cursor per agent instance; each request takes that instance's next step. */
export class ScriptBook {
  #scenario: Scenario;
  #cursors = new Map<string, number>();

  constructor(scenario: Scenario) {
    this.#scenario = scenario;
  }

  get scenario(): Scenario {
    return this.#scenario;
  }

  /** Replaces the scenario; every instance starts its (new) list from the top. */
  replace(scenario: Scenario): void {
    this.#scenario = scenario;
    this.#cursors.clear();
  }

  /** Takes the instance's next step. The step is consumed now, so a retried request gets the one after. */
  next(identity: AgentIdentity): Step {
    const agents = this.#scenario.agents;
    const list = agents[identity.profile] ?? agents["*"] ?? [];
    const cursor = this.#cursors.get(identity.key) ?? 0;
    const step = list[cursor];
    if (step === undefined) return END_OF_SCRIPT;
    if (!step.repeatForever) this.#cursors.set(identity.key, cursor + 1);
    return step;
  }
}
