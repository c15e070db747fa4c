import type { IncomingMessage, ServerResponse } from "node:http";
import { clientGone } from "../http/client-gone";
import { sendJson } from "../http/send-json";
import { sleep } from "../http/sleep";
import { agentIdentity } from "../play/agent-identity";
import { housekeepingStep } from "../play/housekeeping-step";
import { planCompletion } from "../play/plan-completion";
import type { SimState } from "../sim-state";
import { ChatRequest } from "../wire/chat-request";
import { completionBody } from "../wire/completion-body";
import { errorBody } from "../wire/error-body";
import { streamEvents } from "../wire/stream-events";
import { writeStream } from "../wire/stream-writer";

/** `POST /v1/chat/completions`: answers with the calling agent instance's next step. */
export async function chatCompletions(state: SimState, req: IncomingMessage, res: ServerResponse, body: unknown) {
  const parsed = ChatRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "body";
    return sendJson(res, 400, errorBody(400, `invalid chat completion request: ${where}: ${issue?.message ?? "not an object"}`));
  }
  const request = parsed.data;
  const gone = clientGone(res);
  const identity = agentIdentity(req.headers);
  const step = identity.housekeeping ? housekeepingStep(request) : state.book.next(identity);

  if (step.delayMs && !(await sleep(step.delayMs, gone))) return;

  if (step.error) {
    const { status, retryAfterSeconds, message } = step.error;
    const headers: Record<string, string> = retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) };
    return sendJson(res, status, errorBody(status, message ?? `model-sim: scripted error (HTTP ${status})`), headers);
  }

  const plan = planCompletion(step, request, () => state.nextCallId());
  const meta = { id: state.nextCompletionId(), model: request.model ?? "sim", created: Math.floor(Date.now() / 1000) };
  if (request.stream) {
    const includeUsage = request.stream_options?.include_usage === true;
    return writeStream(res, streamEvents(plan, meta, includeUsage), { resetAfterChunks: step.resetAfterChunks, signal: gone });
  }
  // Without a stream there is nothing to cut part-way: the reset comes before any byte of the answer.
  if (step.resetAfterChunks !== undefined) return void res.socket?.resetAndDestroy();
  sendJson(res, 200, completionBody(plan, meta));
}
