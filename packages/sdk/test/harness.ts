import { useServedApi } from "@handoff/api/testing";
import { EventSource } from "eventsource";
import { Handoff } from "../src/index";

/** The served API with an SDK client (admin token of workspace `default`). */
export function useApi() {
  const api = useServedApi();
  return Object.assign(api, {
    client(url?: string) {
      return new Handoff({ url: url ?? api.url, token: api.token, EventSource });
    },
  });
}
