export { startTestServer, freePort, withDatabase, type TestServer } from "./test-server";
export { createTestDatabase, type TestDatabase } from "./test-database";
export { useTestDatabase } from "./use-test-database";
export { waitFor } from "./wait-for";
