import { formatDuration } from "~/lib/format";
import type { StepDetail } from "~/trpc/types";
import { JsonTree } from "./json-tree";
import { ModelMessage } from "./model-message";

interface StepRequest {
  system?: string;
  messages?: { role?: string; content?: unknown }[];
  tools?: string[];
  toolChoice?: string | null;
}

/**
 * One model step: what was sent (system prompt, messages — those already sent by the step
 * before folded away —, tools offered, tool choice), what came back, and the tool calls with
 * their arguments and results.
 */
export function TranscriptStep({ step, previousCount, open }: { step: StepDetail; previousCount: number; open: boolean }) {
  const request = (step.request ?? {}) as StepRequest;
  const messages = request.messages ?? [];
  const earlier = messages.slice(0, previousCount);
  const fresh = messages.slice(previousCount);
  return (
    <details className="step" open={open} data-step={step.number}>
      <summary>
        <span className="mono">step {step.number}</span>
        {step.capped ? <span className="badge tone-warn">last allowed</span> : null}
        <span className={`badge tone-${step.error ? "bad" : step.endedAt ? "neutral" : "info"}`}>{step.error ? "failed" : step.finishReason ?? step.status}</span>
        <span className="small muted">
          {formatDuration(step.durationMs)} · {step.usage.input}/{step.usage.output} tok
          {step.retries ? ` · ${step.retries} retr${step.retries === 1 ? "y" : "ies"}` : ""}
          {step.toolCalls.length ? ` · ${step.toolCalls.map((c) => c.name).join(", ")}` : ""}
        </span>
      </summary>
      <div className="step-body">
        <section>
          <h4>Sent</h4>
          <div className="small muted">
            tools: {request.tools?.length ? request.tools.join(", ") : "none"} · tool choice: {request.toolChoice ?? "—"}
          </div>
          {request.system ? (
            <details className="sub">
              <summary className="small">system prompt</summary>
              <pre className="prewrap">{request.system}</pre>
            </details>
          ) : null}
          {earlier.length ? (
            <details className="sub">
              <summary className="small">{earlier.length} earlier message{earlier.length === 1 ? "" : "s"} (sent before)</summary>
              {earlier.map((m, i) => (
                <ModelMessage key={i} message={m} />
              ))}
            </details>
          ) : null}
          {fresh.map((m, i) => (
            <ModelMessage key={i} message={m} />
          ))}
        </section>
        <section>
          <h4>Received</h4>
          {step.error ? <p className="error-text">{step.error}</p> : null}
          {step.responseText ? <pre className="prewrap">{step.responseText}</pre> : <p className="muted small">no text</p>}
          <div className="small muted">
            finish {step.finishReason ?? "—"}
            {step.rawFinishReason ? ` (provider “${step.rawFinishReason}”)` : ""}
          </div>
        </section>
        {step.toolCalls.length ? (
          <section>
            <h4>Tool calls</h4>
            {step.toolCalls.map((c) => (
              <div key={c.callId} className={`tool-call${c.isError ? " tool-error" : ""}`}>
                <div className="small">
                  <strong className="mono">{c.name}</strong> <span className="muted mono">{c.callId}</span> · {c.status}
                  {c.isError ? <span className="error-text"> · error</span> : null}
                </div>
                <div className="tool-io">
                  <div>
                    <div className="small muted">arguments</div>
                    <JsonTree value={c.args} openDepth={3} label={`${c.name} arguments`} compact />
                  </div>
                  <div>
                    <div className="small muted">result</div>
                    {typeof c.result === "string" ? (
                      <pre className="prewrap">{c.result}</pre>
                    ) : c.result === null || c.result === undefined ? (
                      <span className="muted small">{c.status === "done" ? "null" : "pending"}</span>
                    ) : (
                      <JsonTree value={c.result} openDepth={2} label={`${c.name} result`} compact />
                    )}
                  </div>
                </div>
              </div>
            ))}
          </section>
        ) : null}
      </div>
    </details>
  );
}
