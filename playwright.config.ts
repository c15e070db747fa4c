import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

/** Fixed, unusual ports: the suite runs the service exactly as `npm start` does, beside anything on the defaults. */
const PORT = 3100;
const PG_PORT = 54400;

/**
 * A fresh data directory per run (embedded Postgres, workspaces, the local admin token). The
 * config is loaded by the runner and again by each test worker: only the runner creates the
 * directory, the workers inherit its path, and it is removed when the runner exits (after the
 * web server, and with it Postgres, has stopped).
 */
if (!process.env.HANDOFF_E2E_DATA_DIR) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "handoff-e2e-"));
  process.env.HANDOFF_E2E_DATA_DIR = dir;
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
}

export default defineConfig({
  testDir: "e2e",
  // One service, one worker pool: tests run one at a time against it.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  forbidOnly: !!process.env.CI,
  // Screenshots, traces and the explicit page shots (test-results/screens) are the run's artifacts.
  outputDir: "test-results",
  reporter: [["list"], ["html", { outputFolder: "playwright-report", open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: "chromium",
    viewport: { width: 1440, height: 900 },
    screenshot: "on",
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium: never `npx playwright install`.
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    command: "npm start",
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    // A first run builds the web app (~20 s on two cores) before it starts.
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    // Like Ctrl-C in a terminal: `handoff start` stops its web app, workers and Postgres cleanly.
    gracefulShutdown: { signal: "SIGINT", timeout: 30_000 },
    env: {
      PORT: String(PORT),
      HANDOFF_HOST: "127.0.0.1",
      HANDOFF_PG_PORT: String(PG_PORT),
      HANDOFF_DATA_DIR: process.env.HANDOFF_E2E_DATA_DIR!,
      // Empty means unset: the embedded Postgres, as on a fresh machine.
      DATABASE_URL: "",
      HANDOFF_WORKERS: "1",
      // The service default the dashboard must call out plainly.
      HANDOFF_MODEL: "sim:demo",
      HANDOFF_LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
