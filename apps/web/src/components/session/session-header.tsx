"use client";

import Link from "next/link";
import type { StreamState } from "~/hooks/use-session-events";
import { formatTokens, shortId } from "~/lib/format";
import type { SessionSummary } from "~/trpc/types";
import { CopyButton } from "../ui/copy-button";
import { ModelLabel } from "../ui/model-label";
import { VerdictBadge } from "../ui/verdict-badge";
import { SessionStatusIndicator } from "./session-status-indicator";

/** Title, id, live status, and the facts of the session at a glance. */
export function SessionHeader({ session, status, stream }: { session: SessionSummary; status: string | null; stream: StreamState }) {
  return (
    <header className="session-header">
      <div className="crumbs">
        <Link href="/">Sessions</Link> <span aria-hidden="true">/</span> <span className="mono">{shortId(session.id)}</span>
      </div>
      <div className="session-title-row">
        <h1>{session.title ?? <span className="muted">Untitled session</span>}</h1>
        <SessionStatusIndicator status={status ?? session.status} stream={stream} />
      </div>
      <dl className="facts">
        <div>
          <dt>id</dt>
          <dd className="mono">
            {session.id} <CopyButton text={session.id} />
          </dd>
        </div>
        <div>
          <dt>mode</dt>
          <dd>{session.mode}</dd>
        </div>
        <div>
          <dt>profile</dt>
          <dd>{session.profile}</dd>
        </div>
        <div>
          <dt>model</dt>
          <dd>
            <ModelLabel model={session.root.model} />
          </dd>
        </div>
        <div>
          <dt>root</dt>
          <dd>
            <VerdictBadge verdict={session.root.verdict} /> {session.root.stopReason ?? <span className="muted">no stop yet</span>}
          </dd>
        </div>
        <div>
          <dt>steps</dt>
          <dd className="num">{session.usage.modelSteps}</dd>
        </div>
        <div>
          <dt>tokens in / out</dt>
          <dd className="num">
            {formatTokens(session.usage.inputTokens)} / {formatTokens(session.usage.outputTokens)}
          </dd>
        </div>
        <div>
          <dt>agents</dt>
          <dd className="num">{session.agents}</dd>
        </div>
        <div>
          <dt>lease</dt>
          <dd className="mono small" title={session.lease.expiresAt ? `expires ${session.lease.expiresAt}` : undefined}>
            {session.lease.owner ? `${shortId(session.lease.owner)} · epoch ${session.lease.epoch}` : "none"}
          </dd>
        </div>
      </dl>
    </header>
  );
}
