import { fileURLToPath } from "node:url";
import path from "node:path";

/** The repository (or installed tree) root: packages/cli/src → ../../.. */
export const rootDir = fileURLToPath(new URL("../../../", import.meta.url));
export const webDir = path.join(rootDir, "apps/web");
export const cliMain = path.join(rootDir, "packages/cli/src/main.ts");
