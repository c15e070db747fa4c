import { createRequire } from "node:module";
import * as acp from "@agentclientprotocol/sdk";
import type { Handoff } from "@handoff/sdk";
import type { RootAgent } from "../root-agent";
import { AcpSession } from "./acp-session";
import { promptText } from "./prompt-text";

export interface AcpBridge {
  app: acp.AgentApp;
  /** Stops following every prompt (the connection is closing). */
  close(): void;
}

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

/**
 * The ACP v1 agent: `session/new` creates an interactive Handoff session, `session/prompt`
 * sends a prompt and owns its interval, `session/cancel` cancels the session's work. It only
 * talks to Handoff through the SDK, so in-process and `--url` share this one path.
 */
export function acpBridge(options: { handoff: Promise<Handoff>; root: RootAgent; log(line: string): void }): AcpBridge {
  const sessions = new Map<string, AcpSession>();
  const shutdown = new AbortController();
  const app = acp
    .agent({ name: "handoff" })
    .onRequest(acp.methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
      },
      agentInfo: { name: "handoff", title: "Handoff", version },
      authMethods: [],
    }))
    .onRequest(acp.methods.agent.session.new, async ({ params }) => {
      const handoff = await options.handoff;
      // The ACP cwd is not the agent's workspace: a Handoff session works in its own (see README).
      const created = await handoff.trpc.session.create
        .mutate({ mode: "interactive", ...options.root })
        .catch((e: unknown) => Promise.reject(requestError(e)));
      sessions.set(created.sessionId, new AcpSession({ handoff, sessionId: created.sessionId, shutdown: shutdown.signal, log: options.log }));
      options.log(`session ${created.sessionId} (ACP cwd ${params.cwd})`);
      return { sessionId: created.sessionId, _meta: { handoff: { rootAgentId: created.rootAgentId } } };
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client, signal }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw acp.RequestError.sessionNotFound(params.sessionId);
      const text = promptText(params.prompt);
      if (!text.trim()) throw acp.RequestError.invalidParams(undefined, "the prompt has no text");
      const send = (update: acp.SessionUpdate) => client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update });
      return session.prompt(text, send, signal).catch((e: unknown) => Promise.reject(requestError(e)));
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });
  return { app, close: () => shutdown.abort() };
}

/** A service error as a JSON-RPC error with its message (the SDK would otherwise hide it as "Internal error"). */
function requestError(e: unknown): acp.RequestError {
  if (e instanceof acp.RequestError) return e;
  const code = (e as { data?: { code?: string } }).data?.code;
  const message = e instanceof Error ? e.message : String(e);
  if (code === "BAD_REQUEST") return new acp.RequestError(-32602, message, { code });
  if (code === "NOT_FOUND") return new acp.RequestError(-32002, message, { code });
  return new acp.RequestError(-32603, message, code ? { code } : undefined);
}
