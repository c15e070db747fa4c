// Moved to @handoff/db/testing, which the CLI's fault tests share.
export { waitFor } from "@handoff/db/testing";
