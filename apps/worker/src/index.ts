export { startWorker, type WorkerOptions, type RunningWorker } from "./worker";
export { main as workerMain } from "./main";
