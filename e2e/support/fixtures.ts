import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test as base, expect } from "@playwright/test";

/**
 * Every test starts signed in when the service asks for it: in local mode `npm start` keeps
 * an admin token in its data directory, and its sign-in link sets the dashboard's cookie.
 * Without auth there is no token file and nothing to do.
 */
export const test = base.extend<{ signedIn: void }>({
  signedIn: [
    async ({ context, baseURL }, use) => {
      const file = path.join(process.env.HANDOFF_E2E_DATA_DIR ?? "", "local-admin-token");
      if (existsSync(file)) {
        const token = readFileSync(file, "utf8").trim();
        const res = await context.request.get(`${baseURL}/api/auth/login?token=${encodeURIComponent(token)}`);
        expect(res.ok(), `sign-in with the local admin token answered ${res.status()}`).toBe(true);
      }
      await use();
    },
    { auto: true },
  ],
});

export { expect };
