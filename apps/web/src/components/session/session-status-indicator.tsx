import type { StreamState } from "~/hooks/use-session-events";

const LABELS: Record<string, string> = {
  running: "Running",
  idle: "Idle",
  ended: "Ended",
  cancelled: "Cancelled",
};

const STREAM: Record<StreamState, string> = {
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  error: "stream lost; retrying",
};

/** The whole session's state (from the status stream) and whether the event stream is live. */
export function SessionStatusIndicator({ status, stream }: { status: string | null; stream: StreamState }) {
  return (
    <div className="status-indicator" data-status={status ?? "unknown"}>
      <span role="status" aria-live="polite" className={`status-pill status-${status ?? "unknown"}`}>
        <span className="dot" aria-hidden="true" />
        {status ? LABELS[status] ?? status : "…"}
      </span>
      <span className={`stream-state stream-${stream}`} title="the live event stream">
        <span className="dot" aria-hidden="true" /> events {STREAM[stream]}
      </span>
    </div>
  );
}
