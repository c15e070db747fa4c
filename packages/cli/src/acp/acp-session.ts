import type { PromptResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import type { Handoff } from "@handoff/sdk";
import { followPrompt } from "./follow-prompt";

/**
 * One ACP session: a Handoff interactive session whose prompts run one at a time. A prompt
 * waits here, not in the inbox: queued together there, two prompts would be admitted into
 * one turn, and neither could be answered with its own turn's end.
 */
export class AcpSession {
  private tail: Promise<unknown> = Promise.resolve();
  private cancels = new AbortController();

  constructor(
    private readonly bridge: { handoff: Handoff; sessionId: string; shutdown: AbortSignal; log(line: string): void },
  ) {}

  /**
   * Runs after every earlier prompt of the session has been answered. A request withdrawn
   * while it waits (`$/cancel_request`, or the connection closing) is never sent; once sent,
   * only `session/cancel` cancels — an editor going away leaves the session's work running.
   */
  prompt(text: string, send: (update: SessionUpdate) => Promise<void>, request: AbortSignal): Promise<PromptResponse> {
    const cancel = this.cancels.signal;
    const answered = this.tail.then(() =>
      request.aborted ? { stopReason: "cancelled" as const } : followPrompt({ ...this.bridge, text, cancel, send }),
    );
    this.tail = answered.catch(() => {});
    return answered;
  }

  /** `session/cancel`: every prompt pending now — the one in flight and those waiting — answers `cancelled`. */
  cancel(): void {
    this.cancels.abort();
    this.cancels = new AbortController();
  }
}
