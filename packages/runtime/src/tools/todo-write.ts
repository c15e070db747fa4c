import { appendEvents, fencedTransaction, isStorableText } from "@handoff/db";
import { z } from "zod";
import { defineTool } from "./define-tool";

/** Fix (property tests): text Postgres can store — no NUL, no unpaired surrogate — or a validation error the model can act on. */
const StorableText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine(isStorableText, "must not contain NUL or unpaired surrogate characters");

export const TodoItem = z.strictObject({
  id: StorableText(100),
  content: StorableText(2000),
  status: z.enum(["pending", "in_progress", "completed", "cancelled"]),
});
export type TodoItem = z.infer<typeof TodoItem>;

/** Replaces the agent's whole ledger; open items (pending, in_progress) are what completion evidence counts. */
export const todoWriteTool = defineTool("todo_write", {
  description:
    "Replace your todo ledger with this list. Keep it current: mark items in_progress as you start and completed as you finish. " +
    "Open items left at the end mark your work incomplete.",
  parameters: z.strictObject({
    todos: z
      .array(TodoItem)
      .max(200)
      .refine((items) => new Set(items.map((t) => t.id)).size === items.length, "todo ids must be unique"),
  }),
  async execute({ todos }, ctx) {
    await fencedTransaction(ctx.db, ctx.lease, async (tx) => {
      await tx`DELETE FROM todos WHERE agent_id = ${ctx.agentId}`;
      if (todos.length > 0) {
        await tx`
          INSERT INTO todos (session_id, agent_id, id, content, status, position)
          SELECT ${ctx.sessionId}, ${ctx.agentId}, u.id, u.content, u.status::todo_status, u.position
          FROM unnest(${todos.map((t) => t.id)}::text[], ${todos.map((t) => t.content)}::text[],
                      ${todos.map((t) => t.status)}::text[], ${todos.map((_, i) => i)}::int[])
               AS u(id, content, status, position)`;
      }
      await tx`UPDATE agents SET ledger_kept = true WHERE id = ${ctx.agentId}`;
      await appendEvents(tx, ctx.sessionId, [
        { type: "todo.update", agentId: ctx.agentId, turnId: ctx.turnId, data: { todos } },
      ]);
    });
    const open = todos.filter((t) => t.status === "pending" || t.status === "in_progress").length;
    return `Ledger saved: ${todos.length} item(s), ${open} open.`;
  },
});
