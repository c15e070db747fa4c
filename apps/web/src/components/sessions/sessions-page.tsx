"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useDebounced } from "~/hooks/use-debounced";
import { useTRPC } from "~/trpc/react";
import { EmptyState } from "../ui/empty-state";
import { ErrorBox } from "../ui/error-box";
import { Loading } from "../ui/loading";
import { SimNotice } from "../ui/sim-notice";
import { NewSessionForm } from "./new-session-form";
import { Pager } from "./pager";
import { SessionFilters, type Filters } from "./session-filters";
import { SessionsTable } from "./sessions-table";

const PAGE_SIZE = 25;

/** The live list of sessions: filters, search, pages, and New session. */
export function SessionsPage() {
  const trpc = useTRPC();
  const [creating, setCreating] = useState(false);
  const [filters, setFilters] = useState<Filters>({ status: [], verdict: [], search: "" });
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const search = useDebounced(filters.search.trim(), 250);
  const list = useQuery({
    ...trpc.session.list.queryOptions({
      limit: PAGE_SIZE,
      cursor: cursors[cursors.length - 1] ?? null,
      status: filters.status.length ? filters.status : undefined,
      verdict: filters.verdict.length ? filters.verdict : undefined,
      search: search || undefined,
    }),
    refetchInterval: 2_000,
    placeholderData: keepPreviousData,
  });
  const filtered = filters.status.length > 0 || filters.verdict.length > 0 || search !== "";

  return (
    <div className="stack">
      <div className="page-head">
        <h1>Sessions</h1>
        <button type="button" className="btn btn-primary" onClick={() => setCreating((c) => !c)} aria-expanded={creating}>
          New session
        </button>
      </div>
      <SimNotice model={null} />
      {creating ? <NewSessionForm onClose={() => setCreating(false)} /> : null}
      <SessionFilters
        value={filters}
        onChange={(f) => {
          setFilters(f);
          setCursors([null]);
        }}
      />
      {list.isPending ? (
        <Loading lines={6} label="Loading sessions…" />
      ) : list.isError && !list.data ? (
        <ErrorBox error={list.error} retry={() => void list.refetch()} what="load the sessions" />
      ) : list.data.items.length === 0 ? (
        <EmptyState>
          {filtered ? "No session matches these filters." : "No sessions yet. Start one with New session, the SDK or handoff run."}
        </EmptyState>
      ) : (
        <>
          <SessionsTable sessions={list.data.items} />
          <Pager
            page={cursors.length}
            hasNext={list.data.nextCursor !== null}
            onPrev={() => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c))}
            onNext={() => list.data.nextCursor && setCursors((c) => [...c, list.data.nextCursor])}
          />
        </>
      )}
      {list.isError && list.data ? <ErrorBox error={list.error} what="refresh the sessions" /> : null}
    </div>
  );
}
