#!/usr/bin/env node
// The `handoff` command runs the CLI's TypeScript source through tsx: no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
await main(process.argv.slice(2));
