import { defineConfig } from "drizzle-kit";

// Generate only (never push): `npm run db:generate` writes SQL into the top-level drizzle/.
export default defineConfig({
  dialect: "postgresql",
  schema: "./packages/db/src/schema/index.ts",
  out: "./drizzle",
  casing: "snake_case",
});
