import { afterAll, beforeAll, inject } from "vitest";
import { createTestDatabase, type TestDatabase } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

/**
 * A database of this test file's own, cloned from the run's migrated template in
 * `beforeAll` and dropped in `afterAll`. Read `.current` inside tests.
 */
export function useTestDatabase(): { readonly current: TestDatabase } {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await createTestDatabase(inject("pgAdminUrl"), inject("pgTemplate"));
  });
  afterAll(async () => {
    await current?.drop();
  });
  return {
    get current() {
      if (!current) throw new Error("the test database is ready only inside tests and hooks");
      return current;
    },
  };
}
