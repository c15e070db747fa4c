"use client";

import Link from "next/link";
import { useNow } from "~/hooks/use-now";
import { ageSeconds, formatAge, formatTokens } from "~/lib/format";
import type { SessionSummary } from "~/trpc/types";
import { StatusBadge } from "../ui/status-badge";
import { VerdictBadge } from "../ui/verdict-badge";
import { useServiceDefaults } from "../ui/service-defaults";

/** One row per session: what it is, how it stands, what it cost. */
export function SessionsTable({ sessions }: { sessions: SessionSummary[] }) {
  const now = useNow();
  const { defaultModel } = useServiceDefaults();
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Mode</th>
            <th scope="col">Status</th>
            <th scope="col">Root verdict</th>
            <th scope="col">Model</th>
            <th scope="col" className="num">Age</th>
            <th scope="col" className="num">Steps</th>
            <th scope="col" className="num" title="input / output tokens">Tokens</th>
            <th scope="col" className="num">Agents</th>
            <th scope="col" className="num">Queued</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id} data-session-id={s.id}>
              <td>
                <Link href={`/sessions/${s.id}`} className="row-link">
                  {s.title ?? <span className="muted">Untitled</span>}
                </Link>
                <div className="mono small muted">{s.id}</div>
              </td>
              <td>{s.mode}</td>
              <td>
                <StatusBadge status={s.status} />
              </td>
              <td>
                <VerdictBadge verdict={s.root.verdict} />
                {s.root.failureTag ? <span className="small muted"> {s.root.failureTag}</span> : null}
              </td>
              <td className="mono small">{s.root.model ?? defaultModel}</td>
              <td className="num" title={new Date(s.createdAt).toLocaleString()}>
                {formatAge(ageSeconds(s.createdAt, now))}
              </td>
              <td className="num">{s.usage.modelSteps}</td>
              <td className="num">
                {formatTokens(s.usage.inputTokens)} / {formatTokens(s.usage.outputTokens)}
              </td>
              <td className="num">{s.agents}</td>
              <td className="num">{s.queued || <span className="muted">0</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
