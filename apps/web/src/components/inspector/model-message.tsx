import { preview } from "~/lib/format";

type Part = { type: string; text?: string; toolName?: string; toolCallId?: string; input?: unknown; output?: { type?: string; value?: unknown } };

/** One message of a model request (AI SDK shape): its role and its parts, tool calls and results included. */
export function ModelMessage({ message }: { message: { role?: string; content?: unknown } }) {
  const parts: Part[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : ((message.content as Part[]) ?? []);
  return (
    <div className={`msg msg-${message.role ?? "unknown"}`}>
      <span className="msg-role">{message.role}</span>
      <div className="msg-parts">
        {parts.length === 0 ? <span className="muted small">(empty)</span> : null}
        {parts.map((p, i) =>
          p.type === "text" ? (
            <pre key={i} className="prewrap">
              {p.text || <span className="muted">(blank)</span>}
            </pre>
          ) : p.type === "tool-call" ? (
            <div key={i} className="mono small tool-line">
              → {p.toolName}({preview(p.input, 400)})
            </div>
          ) : p.type === "tool-result" ? (
            <div key={i} className="mono small tool-line">
              ← {p.toolName}: {p.output?.type === "error-text" ? "error: " : ""}
              {preview(p.output?.value, 400)}
            </div>
          ) : (
            <pre key={i} className="mono small">
              {JSON.stringify(p)}
            </pre>
          ),
        )}
      </div>
    </div>
  );
}
