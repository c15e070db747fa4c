import type { IncomingHttpHeaders } from "node:http";

export interface AgentIdentity {
  /** One agent instance: its cursor into the script is kept under this key. */
  key: string;
  /** Which list of the scenario it plays (`*` when the request names none). */
  profile: string;
  /** `x-handoff-purpose: housekeeping`: answered outside the script. */
  housekeeping: boolean;
}

/** Reads the tracing headers the runtime puts on every model request. */
export function agentIdentity(headers: IncomingHttpHeaders): AgentIdentity {
  const session = header(headers, "x-handoff-session");
  const agent = header(headers, "x-handoff-agent");
  const profile = header(headers, "x-handoff-profile") ?? "*";
  // Both ids together: agent ids are unique, but a caller may reuse one across sessions in tests.
  const key = session === undefined && agent === undefined ? "anonymous" : `${session ?? "-"}/${agent ?? "-"}`;
  return { key, profile, housekeeping: header(headers, "x-handoff-purpose") === "housekeeping" };
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === "" ? undefined : first;
}
