/**
 * C1: an agent returns a result unless it is the root of an interactive session, which
 * converses across turns and never returns. Everything that gates on "returning" (the
 * `reply` tool, nudges, the cap's last request) reads the `agents.returning` column that
 * this function fills once, at the agent's creation.
 */
export function isReturning(agent: { isRoot: boolean; mode: "interactive" | "headless" }): boolean {
  return !(agent.isRoot && agent.mode === "interactive");
}
