import Link from "next/link";
import type { QueueView } from "~/trpc/types";
import { EmptyState } from "../ui/empty-state";

/** Hook deliveries that gave up, newest first, with the last error. */
export function FailedHooks({ hooks }: { hooks: QueueView["failedHookDeliveries"] }) {
  if (hooks.length === 0) return <EmptyState>No failed hook deliveries.</EmptyState>;
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">URL</th>
            <th scope="col" className="num">Attempts</th>
            <th scope="col">Last error</th>
            <th scope="col">Session</th>
          </tr>
        </thead>
        <tbody>
          {hooks.map((h) => (
            <tr key={h.id}>
              <td className="small">{new Date(h.at).toLocaleString()}</td>
              <td>{h.event}</td>
              <td className="mono small">{h.url}</td>
              <td className="num">{h.attempts}</td>
              <td className="small">{h.lastError ?? "—"}</td>
              <td>
                <Link href={`/sessions/${h.sessionId}`} className="mono small">
                  {h.sessionId}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
