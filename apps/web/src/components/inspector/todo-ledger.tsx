import type { AgentDetail } from "~/trpc/types";
import { Card } from "../ui/card";
import { EmptyState } from "../ui/empty-state";

const MARKS: Record<string, string> = { pending: "○", in_progress: "◐", completed: "●", cancelled: "⊘" };

/** The agent's todo ledger (at termination once it has stopped); open items stand out. */
export function TodoLedger({ agent }: { agent: AgentDetail }) {
  const ended = agent.endedAt !== null;
  const open = agent.todos.filter((t) => t.status === "pending" || t.status === "in_progress").length;
  return (
    <Card title={`Todo ledger${ended ? " at termination" : ""}`} id="todos" actions={agent.ledgerKept ? <span className="small muted">{open} open</span> : null}>
      {!agent.ledgerKept ? (
        <EmptyState>No ledger kept.</EmptyState>
      ) : agent.todos.length === 0 ? (
        <EmptyState>The ledger is empty.</EmptyState>
      ) : (
        <ul className="todos">
          {agent.todos.map((t) => (
            <li key={t.id} className={`todo todo-${t.status}`} data-status={t.status}>
              <span className="todo-mark" aria-hidden="true">
                {MARKS[t.status] ?? "·"}
              </span>
              <span className="todo-content">{t.content}</span>
              <span className="small muted">{t.status.replace("_", " ")}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
