"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/trpc/react";
import { Card } from "../ui/card";
import { ErrorBox } from "../ui/error-box";
import { Loading } from "../ui/loading";
import { FailedHooks } from "./failed-hooks";
import { QueueStats } from "./queue-stats";
import { RateChart } from "./rate-chart";
import { StuckLeases } from "./stuck-leases";
import { WorkersTable } from "./workers-table";

/** The pool at a glance, refreshed every second: workers, backlog, throughput, and what needs a person. */
export function OpsPage() {
  const trpc = useTRPC();
  const workers = useQuery({ ...trpc.ops.workers.queryOptions(), refetchInterval: 1_000 });
  const queue = useQuery({ ...trpc.ops.queue.queryOptions(), refetchInterval: 1_000 });
  const minutes = queue.data?.perMinute.map((m) => m.minute) ?? [];

  return (
    <div className="stack">
      <div className="page-head">
        <h1>Ops</h1>
        <span className="small muted">refreshes every second</span>
      </div>
      {queue.isPending ? (
        <Loading lines={2} label="Loading the queue…" />
      ) : queue.isError && !queue.data ? (
        <ErrorBox error={queue.error} retry={() => void queue.refetch()} what="load the queue" />
      ) : (
        <>
          <QueueStats queue={queue.data} />
          <div className="chart-row">
            <RateChart title="Admissions" values={queue.data.perMinute.map((m) => m.admissions)} minutes={minutes} tone="accent" />
            <RateChart title="Model steps" values={queue.data.perMinute.map((m) => m.steps)} minutes={minutes} tone="ok" />
            <RateChart title="Errors" values={queue.data.perMinute.map((m) => m.errors)} minutes={minutes} tone="bad" />
          </div>
        </>
      )}
      <Card title={`Workers${workers.data ? ` (${workers.data.length})` : ""}`} id="workers">
        {workers.isPending ? (
          <Loading lines={2} />
        ) : workers.isError && !workers.data ? (
          <ErrorBox error={workers.error} retry={() => void workers.refetch()} what="load the workers" />
        ) : (
          <WorkersTable workers={workers.data} />
        )}
      </Card>
      <div className="two-col">
        <Card title="Stuck leases" id="stuck">
          {queue.data ? <StuckLeases stuck={queue.data.stuckLeases} /> : <Loading lines={1} />}
        </Card>
        <Card title="Failed hook deliveries" id="hooks">
          {queue.data ? <FailedHooks hooks={queue.data.failedHookDeliveries} /> : <Loading lines={1} />}
        </Card>
      </div>
      {(queue.isError && queue.data) || (workers.isError && workers.data) ? (
        <ErrorBox error={queue.error ?? workers.error} what="refresh (showing the last good data)" />
      ) : null}
    </div>
  );
}
