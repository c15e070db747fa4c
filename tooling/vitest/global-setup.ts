import type { TestProject } from "vitest/node";
import { dbEnv } from "@handoff/db";
import { startTestServer } from "@handoff/db/testing/server";

/** One Postgres and one migrated template for the whole run; each test file clones it. */
export default async function setup(project: TestProject) {
  const server = await startTestServer(dbEnv().DATABASE_URL);
  project.provide("pgAdminUrl", server.adminUrl);
  project.provide("pgTemplate", server.template);
  return () => server.stop();
}
