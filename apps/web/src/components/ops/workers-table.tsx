import { formatAge } from "~/lib/format";
import type { WorkerView } from "~/trpc/types";
import { EmptyState } from "../ui/empty-state";
import { StatusBadge } from "../ui/status-badge";

/** Workers seen in the last hour: state, heartbeat age, and sessions held against their concurrency. */
export function WorkersTable({ workers }: { workers: WorkerView[] }) {
  if (workers.length === 0) return <EmptyState>No worker has reported in the last hour. Start one with `handoff worker`.</EmptyState>;
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Worker</th>
            <th scope="col">Host · pid</th>
            <th scope="col">State</th>
            <th scope="col" className="num">Heartbeat</th>
            <th scope="col">Sessions held / concurrency</th>
          </tr>
        </thead>
        <tbody>
          {workers.map((w) => (
            <tr key={w.id} data-worker-id={w.id} data-state={w.state}>
              <td className="mono small">{w.id}</td>
              <td className="small">
                {w.host} · {w.pid}
              </td>
              <td>
                <StatusBadge status={w.state} />
              </td>
              <td className="num" title={`${w.heartbeatAgeSeconds} s ago`}>
                {w.heartbeatAgeSeconds < 60 ? `${w.heartbeatAgeSeconds.toFixed(1)}s` : formatAge(w.heartbeatAgeSeconds)} ago
              </td>
              <td>
                <span className="meter" aria-hidden="true">
                  <span style={{ width: `${Math.min(100, (w.sessionsHeld / Math.max(1, w.concurrency)) * 100)}%` }} />
                </span>{" "}
                <span className="num">
                  {w.sessionsHeld} / {w.concurrency}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
