import { ScriptBook } from "./play/script-book";
import { RequestLog } from "./request-log";
import type { Scenario } from "./scenario/scenario";

/** Everything one running simulator remembers between requests. */
export class SimState {
  readonly book: ScriptBook;
  readonly log = new RequestLog();
  #calls = 0;
  #completions = 0;

  constructor(scenario: Scenario) {
    this.book = new ScriptBook(scenario);
  }

  /** Unique for the simulator's lifetime, so ids never repeat across agents or steps. */
  nextCallId(): string {
    return `call_${++this.#calls}`;
  }

  nextCompletionId(): string {
    return `chatcmpl-sim-${++this.#completions}`;
  }
}
