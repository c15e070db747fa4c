import { formatAge } from "~/lib/format";
import type { QueueView } from "~/trpc/types";

/** The inbox backlog over all sessions: how many messages wait, and for how long the oldest has. */
export function QueueStats({ queue }: { queue: QueueView }) {
  return (
    <dl className="stat-row">
      <div className="stat">
        <dt>queue depth</dt>
        <dd data-testid="queue-depth">{queue.depth}</dd>
      </div>
      <div className="stat">
        <dt>oldest queued</dt>
        <dd data-testid="queue-oldest">{queue.depth === 0 ? "—" : formatAge(queue.oldestAgeSeconds)}</dd>
      </div>
      <div className="stat">
        <dt>stuck leases</dt>
        <dd className={queue.stuckLeases.total > 0 ? "bad-text" : undefined}>{queue.stuckLeases.total}</dd>
      </div>
      <div className="stat">
        <dt>failed hook deliveries</dt>
        <dd className={queue.failedHookDeliveries.length > 0 ? "bad-text" : undefined}>{queue.failedHookDeliveries.length}</dd>
      </div>
    </dl>
  );
}
