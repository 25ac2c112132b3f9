import { batch, signal } from "@preact/signals";
import type { PublicAgent } from "../../shared/config/agent-config.ts";
import { emptySession, foldSession, type SessionState } from "../../shared/session/session.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { newId } from "../agent/ids.ts";
import { isExpired, type StoredSession } from "../agent/session-api.ts";
import { createApi, type ApiContext } from "../transport/api.ts";
import { isHttpError } from "../transport/errors.ts";
import { loadSession, loadText, saveSession, saveText, sessionKey, type KeyValueStore } from "./browser-storage.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

export interface SessionStoreOptions extends ApiContext {
  siteKey: string;
  agentId: string;
  identity?: string;
  draft?: boolean;
  locale: string;
  storage: KeyValueStore | null;
}

/**
 * The session's lifecycle: restore the stored one, open a new one only when the visitor engages,
 * fold events with the shared reducer (the SessionRoom folds the same events the same way), and
 * send the events the widget itself produced (advice cards, client tool traces).
 */
export function createSessionStore(opts: SessionStoreOptions) {
  const key = sessionKey(opts.siteKey, opts.agentId, opts.identity);
  const api = createApi(opts);
  const state = signal<SessionState>(emptySession());
  const agent = signal<PublicAgent | null>(null);

  /**
   * The consent version this browser's visitor agreed to for this agent: a new conversation opens with
   * it (the worker records it), and asks again only when the site's version changed.
   */
  let agreed = loadText(opts.storage, key + ":consent") || undefined;
  let credentials: StoredSession | null = loadSession(opts.storage, key);
  if (credentials && isExpired(credentials)) {
    credentials = null;
    saveSession(opts.storage, key, null);
  }
  let restored = false;
  /** Replies that were streaming when the session was restored (a reload mid-reply). */
  let streaming: string[] = [];
  let restoring: Promise<void> | null = null;
  let creating: Promise<void> | null = null;
  let outbox: SessionEvent[] = [];
  /** Bumped by reset(): an answer for the session before it is dropped, not applied. */
  let generation = 0;
  /**
   * Where the page stands in the session's log, for the live channel (live-sync.ts): the sequence
   * number of the last event the worker's state had when the page took it (its `version`: one
   * event, one number), and the ids of events the page folded itself since, so none is folded twice.
   */
  const log = { seq: 0, seen: new Set<string>() };
  const take = (s: SessionState) => {
    state.value = { ...emptySession(), ...s };
    log.seq = s.version;
  };

  async function restore(stored: StoredSession): Promise<void> {
    const gen = generation;
    try {
      const res = await api.call(ROUTES.session, stored);
      if (gen !== generation) return;
      batch(() => {
        take(res.state);
        agent.value = res.agent;
      });
      streaming = res.streaming ?? [];
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

  /** Drops the session (credentials, stored key, unsent events, state): the next ensure() opens a new one. */
  function reset(): void {
    forget();
    generation++;
    restoring = creating = null;
    outbox = [];
    state.value = emptySession();
    log.seq = 0;
    log.seen.clear();
  }

  async function create(): Promise<void> {
    const gen = generation;
    // A keep-nothing conversation the worker erased: the page carries what it shows into the next one.
    const shown = state.value;
    const carry =
      agent.value?.keepNothingMinutes && shown.sessionId && shown.messages.length
        ? (await import("./carry-over.ts")).carryOver
        : null;
    const res = await api.call(ROUTES.sessions, null, {
      // A site that verifies identities (safety.identity) reads it as the host's signed token.
      body: {
        siteKey: opts.siteKey,
        agentId: opts.agentId,
        locale: opts.locale,
        identity: opts.identity,
        draft: opts.draft,
        consent: agreed,
      },
    });
    if (gen !== generation) return;
    credentials = { sessionId: res.sessionId, token: res.token, expiresAt: res.expiresAt };
    restored = true;
    saveSession(opts.storage, key, credentials);
    batch(() => {
      agent.value = res.agent;
      take(carry ? carry(shown, res.state) : res.state);
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

  /** Reloads the state from the worker, e.g. after a refused edit showed the local copy is stale. */
  async function refresh(): Promise<void> {
    if (!credentials) return;
    take((await api.call(ROUTES.session, credentials)).state);
  }

  /** Folds events into the local state now. */
  function apply(events: SessionEvent[]): void {
    // An event the live channel brought before this page's own answer did (a context edit's, a
    // tool's) is not folded again: the context's version would move and the next edit be refused.
    // A message event is, to take the newer copy.
    const fresh = events.filter((e) => e.type === EVENT_TYPES.messageAppended || !log.seen.has(e.id));
    for (const e of fresh) log.seen.add(e.id);
    if (fresh.length) state.value = foldSession(fresh, state.value);
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
      await api.call(ROUTES.sessionEvents, credentials, { body: { events } });
    } catch {
      outbox.unshift(...events);
    }
  }

  /** The session's credentials; calls before the session exists are refused by the worker (401). */
  const auth = () => ({ sessionId: credentials?.sessionId ?? state.value.sessionId, token: credentials?.token ?? "" });

  /**
   * An edge tool, run by the worker with the session's credentials: what it changed in the session (a
   * stage's context, a booking) folds in at once. The call's id lets the worker show what it checked.
   */
  const runTool = (name: string, input: unknown, signal?: AbortSignal, callId?: string) =>
    api.call(ROUTES.tool, auth(), { body: { arguments: input, callId }, signal }, { name }).then((r) => {
      if (r.events?.length) apply(r.events);
      return r.result;
    });

  return {
    /** The worker's routes, for the calls the session's owners make with its credentials (auth()). */
    api,
    state,
    agent,
    log,
    ensure,
    restoreOnce,
    forget,
    reset,
    refresh,
    apply,
    record,
    flush,
    /** This page's id: its chat requests and its live socket name it, so the socket gets no copy of its replies. */
    tab: newId(),
    auth,
    runTool,
    hasCredentials: () => credentials !== null,
    /** Remembers the consent version agreed to (none: forgets it); the next new session opens with it. */
    agree(version?: string): void {
      agreed = version;
      saveText(opts.storage, key + ":consent", version ?? "");
    },
    /** The reply to reattach to after a reload, once (then it is the turn runner's). */
    takeStreaming: () => streaming.splice(0)[0],
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
