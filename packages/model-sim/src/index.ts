export { createModelSim, type ModelSim, type ModelSimOptions } from "./server";
export { Scenario, Step, ScriptedToolCall, StepError, StepUsage, FinishReason } from "./scenario/scenario";
export { parseScenario } from "./scenario/parse-scenario";
export { loadScenarioFile } from "./scenario/load-scenario-file";
export { builtinScenarios, getBuiltinScenario } from "./builtins/builtin-scenarios";
export { END_OF_SCRIPT } from "./play/script-book";
export type { RecordedRequest } from "./request-log";
