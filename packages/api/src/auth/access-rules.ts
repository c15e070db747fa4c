import type { Role } from "@handoff/db";

/**
 * The least role each procedure needs. Every procedure must be listed: the auth middleware
 * refuses one that is not, and a table-driven test fails for it.
 */
export const ACCESS_RULES: Record<string, Role> = {
  "auth.whoami": "viewer",
  "session.create": "operator",
  "session.prompt": "operator",
  "session.followup": "operator",
  "session.steer": "operator",
  "session.cancel": "operator",
  "session.get": "viewer",
  "session.list": "viewer",
  "session.messages": "viewer",
  "session.events": "viewer",
  "session.status": "viewer",
  "agent.get": "viewer",
  "agent.tree": "viewer",
  "agent.resume": "operator",
  // Service-wide views (every workspace's workers, queue and hook failures): admins only.
  "ops.workers": "admin",
  "ops.queue": "admin",
};
