import { startWorker } from "../src/worker";
import { createTestDriver } from "./fixtures/test-driver";
const w = await startWorker({ databaseUrl: "postgres://postgres@127.0.0.1:5432/handoff_scratch", concurrency: 4, driver: createTestDriver({ stepMs: 500 }), leaseTtlMs: 1000, pollMs: 250 });
await new Promise((r) => setTimeout(r, 1000));
console.log("calling drain");
await w.drain();
console.log("drained");
