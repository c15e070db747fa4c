import { Badge, type Tone } from "./badge";

const TONES: Record<string, Tone> = {
  // sessions
  running: "info",
  idle: "neutral",
  ended: "ok",
  cancelled: "warn",
  // agents
  pending: "neutral",
  done: "ok",
  failed: "bad",
  // inbox messages
  queued: "warn",
  admitted: "ok",
  // workers
  draining: "warn",
  stopped: "neutral",
  silent: "bad",
};

/** The status of a session, an agent, an inbox message or a worker. */
export function StatusBadge({ status, title }: { status: string | null | undefined; title?: string }) {
  if (!status) return <Badge title={title}>—</Badge>;
  return (
    <Badge tone={TONES[status] ?? "neutral"} pulse={status === "running"} title={title}>
      {status}
    </Badge>
  );
}
