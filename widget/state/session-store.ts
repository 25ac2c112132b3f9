import { batch, signal } from "@preact/signals";
import type { PublicAgent } from "../../shared/agent-config.ts";
import { ROUTES } from "../../shared/protocol.ts";
import { emptySession, foldSession, type SessionEvent, type SessionState } from "../../shared/session.ts";
import { createSession, fetchSession, isExpired, type ApiContext, type StoredSession } from "../agent/session-api.ts";
import { isHttpError, request } from "../transport/http.ts";
import { loadSession, saveSession, sessionKey, type KeyValueStore } from "./session-storage.ts";

export interface SessionStoreOptions extends ApiContext {
  siteKey: string;
  agentId: string;
  locale: string;
  storage: KeyValueStore | null;
}

/**
 * The session's lifecycle: restore the stored one, open a new one only when the visitor engages,
 * fold events with the shared reducer (the SessionRoom folds the same events the same way), and
 * send the events the widget itself produced (advice cards, client tool traces).
 */
export function createSessionStore(opts: SessionStoreOptions) {
  const key = sessionKey(opts.siteKey, opts.agentId);
  const state = signal<SessionState>(emptySession());
  const agent = signal<PublicAgent | null>(null);

  let credentials: StoredSession | null = loadSession(opts.storage, key);
  if (credentials && isExpired(credentials)) {
    credentials = null;
    saveSession(opts.storage, key, null);
  }
  let restored = false;
  let restoring: Promise<void> | null = null;
  let creating: Promise<void> | null = null;
  let outbox: SessionEvent[] = [];

  async function restore(stored: StoredSession): Promise<void> {
    try {
      const res = await fetchSession(opts, stored);
      batch(() => {
        state.value = res.state;
        if (res.agent) agent.value = res.agent;
      });
      restored = true;
    } catch (e) {
      // A session the worker no longer knows (expired token, wiped state) is replaced silently.
      if (isHttpError(e) && (e.status === 401 || e.status === 404)) return forget();
      throw e;
    }
  }

  function forget(): void {
    credentials = null;
    restored = false;
    saveSession(opts.storage, key, null);
  }

  async function create(): Promise<void> {
    const res = await createSession(opts, { siteKey: opts.siteKey, agentId: opts.agentId, locale: opts.locale });
    credentials = { sessionId: res.sessionId, token: res.token, expiresAt: res.expiresAt };
    restored = true;
    saveSession(opts.storage, key, credentials);
    batch(() => {
      agent.value = res.agent;
      state.value = res.state ?? { ...emptySession(), sessionId: res.sessionId };
    });
  }

  /** Loads the stored session once; concurrent callers share one request. Never creates one. */
  function restoreOnce(): Promise<void> {
    if (!credentials || restored) return Promise.resolve();
    if (!restoring) {
      restoring = restore(credentials);
      const clear = () => void (restoring = null);
      restoring.then(clear, clear);
    }
    return restoring;
  }

  /** Restores the stored session, or opens a new one. */
  async function ensure(): Promise<StoredSession> {
    await restoreOnce();
    if (!credentials) {
      if (!creating) {
        creating = create();
        const clear = () => void (creating = null);
        creating.then(clear, clear);
      }
      await creating;
    }
    return credentials!;
  }

  /** Folds events into the local state now. */
  function apply(events: SessionEvent[]): void {
    state.value = foldSession(events, state.value);
  }

  /** Folds events the widget produced and sends them; a failed send is retried with the next flush. */
  function record(events: SessionEvent[]): void {
    apply(events);
    outbox.push(...events);
    void flush();
  }

  async function flush(): Promise<void> {
    if (!credentials || !outbox.length) return;
    const events = outbox;
    outbox = [];
    try {
      await request(opts.api + ROUTES.sessionEvents.replace(":id", encodeURIComponent(credentials.sessionId)), {
        body: { events },
        token: credentials.token,
        fetch: opts.fetch,
      });
    } catch {
      outbox.unshift(...events);
    }
  }

  return {
    state,
    agent,
    ensure,
    restoreOnce,
    forget,
    apply,
    record,
    flush,
    token: () => credentials?.token ?? "",
    hasCredentials: () => credentials !== null,
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
