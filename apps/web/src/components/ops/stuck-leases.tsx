import Link from "next/link";
import { formatAge } from "~/lib/format";
import type { QueueView } from "~/trpc/types";
import { EmptyState } from "../ui/empty-state";

/** Leases expired for more than three TTLs that no worker has taken over: an operator should look. */
export function StuckLeases({ stuck }: { stuck: QueueView["stuckLeases"] }) {
  if (stuck.total === 0) return <EmptyState>No stuck leases.</EmptyState>;
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Owner</th>
            <th scope="col" className="num">Epoch</th>
            <th scope="col" className="num">Expired</th>
          </tr>
        </thead>
        <tbody>
          {stuck.leases.map((l) => (
            <tr key={l.sessionId}>
              <td>
                <Link href={`/sessions/${l.sessionId}`} className="mono small">
                  {l.sessionId}
                </Link>
              </td>
              <td className="mono small">{l.owner}</td>
              <td className="num">{l.epoch}</td>
              <td className="num">{formatAge(l.expiredSeconds)} ago</td>
            </tr>
          ))}
        </tbody>
      </table>
      {stuck.total > stuck.leases.length ? <p className="small muted">and {stuck.total - stuck.leases.length} more</p> : null}
    </div>
  );
}
