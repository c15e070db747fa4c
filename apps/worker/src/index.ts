export { startWorker, type WorkerOptions, type RunningWorker } from "./worker";
export { main as workerMain, parseMainArgs as parseWorkerArgs, type MainOptions as WorkerMainOptions } from "./main";
export type { SessionDriver, DriveContext, DriverLogger } from "./driver";
export { METRIC } from "./metrics";
