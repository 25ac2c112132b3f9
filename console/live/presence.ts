import { HEADERS } from "../../shared/wire/protocol.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { PRESENCE_BEAT_MS } from "../../shared/takeover/takeover-api.ts";
import { api, session } from "../api.ts";

/**
 * While the Live page (its list or a conversation) is open, its staff member is present: a
 * heartbeat every PRESENCE_BEAT_MS, so visitors who ask for a person are queued. Leaving (another
 * console page, the tab closed) says so at once rather than after the worker's TTL. Answers the
 * first beat (the page reads the overview after it) and the stop.
 */
export function stayPresent(): { first: Promise<unknown>; stop: () => void } {
  const beat = () => api.post(ROUTES.adminLivePresence, { json: {} }).catch(() => {});
  const first = beat();
  const timer = setInterval(beat, PRESENCE_BEAT_MS);
  const leave = () => {
    const csrf = session.value?.csrf;
    if (csrf)
      void fetch(ROUTES.adminLivePresence, { method: "DELETE", headers: { [HEADERS.csrf]: csrf }, keepalive: true });
  };
  addEventListener("pagehide", leave);
  return {
    first,
    stop() {
      clearInterval(timer);
      removeEventListener("pagehide", leave);
      leave();
    },
  };
}
