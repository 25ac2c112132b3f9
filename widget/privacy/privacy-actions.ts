import type { ConsentNotice } from "../../shared/session/consent.ts";
import { routePath } from "../../shared/wire/route-path.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import * as PRIVACY_ROUTES from "../../shared/wire/privacy-routes.ts";
import type { ChatStore } from "../state/chat-store.ts";
import { isHttpError } from "../transport/errors.ts";
import { request } from "../transport/http.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/**
 * The visitor agreed to the notice: in an open conversation the worker records it (the consent route);
 * before one, the session opens with the version (the worker records it then). The version is kept in
 * this browser for the visitor's next conversation; a message that waited for the agreement goes now.
 * A notice that changed meanwhile is shown instead (the refusal carries it).
 */
export async function agreeTo(store: ChatStore, notice: ConsentNotice): Promise<void> {
  const { api, fetch, session } = store.privacy;
  try {
    if (session.hasCredentials()) {
      const { sessionId, token } = session.auth();
      const url = api + routePath(PRIVACY_ROUTES.sessionConsent, { id: sessionId });
      const body = { kind: notice.kind, version: notice.version };
      const res = await request(url, { method: "POST", body, token, fetch });
      session.apply(((await res.json()) as { events: SessionEvent[] }).events);
    }
  } catch (e) {
    const current = isHttpError(e) ? e.detail?.consent : undefined;
    if (!current) throw e;
    store.consent.value = current;
    return;
  }
  session.agree(notice.version);
  store.consent.value = null;
  await store.retry();
}

/** The visitor declined: nothing is stored, and this browser forgets any version it remembered. */
export function decline(store: ChatStore): void {
  store.privacy.session.agree();
}

/** Saves the visitor's copy of the conversation (an offline HTML file, or JSON) from the worker, with the token. */
export async function download(store: ChatStore, format: "html" | "json"): Promise<void> {
  const { api, fetch, session } = store.privacy;
  const { sessionId, token } = session.auth();
  const url = `${api}${routePath(PRIVACY_ROUTES.sessionDownload, { id: sessionId })}?format=${format}`;
  const blob = await (await request(url, { token, fetch, timeoutMs: 60_000 })).blob();
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `conversation-${sessionId}.${format}`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

/**
 * Deletes the conversation: the page's own reply stops, the worker erases everything of it (a reply it
 * streams is stopped there first), and the panel starts afresh, asking consent again (the version agreed
 * is forgotten). A conversation already gone counts as deleted. The live channel may bring the erasure
 * first and start afresh itself: then nothing more.
 */
export async function erase(store: ChatStore): Promise<void> {
  const { api, fetch, session } = store.privacy;
  store.stop();
  // Forgotten first: the conversation that starts afresh asks consent again, whichever side starts it.
  session.agree();
  const { sessionId, token } = session.auth();
  try {
    await request(api + routePath(ROUTES.session, { id: sessionId }), { method: "DELETE", token, fetch });
  } catch (e) {
    if (!isHttpError(e) || e.status !== 404) throw e;
  }
  if (session.auth().token === token) store.clear();
}
