import { createApiHandler } from "@handoff/api";
import { apiContext } from "~/api-context";

export const dynamic = "force-dynamic";

const handler = createApiHandler(apiContext);

export { handler as GET, handler as POST };
