import { batch, computed, signal } from "@preact/signals";
import type { PublicAgent } from "../../shared/agent-config.ts";
import { EVENT_TYPES } from "../../shared/protocol.ts";
import { emptySession, reduceSession, type SessionState, type StoredMessage } from "../../shared/session.ts";
import { runChatTurn } from "../agent/chat-turn.ts";
import { newId } from "../agent/ids.ts";
import { createSession, fetchSession, isExpired, type StoredSession } from "../agent/session-api.ts";
import type { Emitter, WidgetMessage } from "./events.ts";
import { errorText, stringsFor, type WidgetLocale } from "../i18n/index.ts";
import { isAbortError, isHttpError, isNetworkError, isTimeoutError, type FetchLike } from "../transport/http.ts";
import { loadSession, saveSession, sessionKey, type KeyValueStore } from "./session-storage.ts";

export type ChatStatus = "idle" | "connecting" | "sending" | "streaming" | "error";

export interface ChatStoreOptions {
  api: string;
  siteKey: string;
  agentId: string;
  locale: WidgetLocale;
  storage: KeyValueStore | null;
  fetch?: FetchLike;
  emitter: Emitter;
}

export type ViewMessage = Pick<StoredMessage, "id" | "content" | "status"> & { role: "user" | "assistant" };

function errorCode(e: unknown): string {
  if (isHttpError(e)) return e.code;
  if (isTimeoutError(e)) return "timeout";
  if (isNetworkError(e)) return "network";
  return "internal";
}

export type ChatStore = ReturnType<typeof createChatStore>;

/**
 * The widget's state in signals, and the actions that change it. The session's messages are
 * folded with the shared reducer, the same one the SessionRoom uses, so a restored list and
 * a live one agree.
 */
export function createChatStore(opts: ChatStoreOptions) {
  const strings = stringsFor(opts.locale);
  const ctx = { api: opts.api, fetch: opts.fetch };
  const key = sessionKey(opts.siteKey, opts.agentId);

  const isOpen = signal(false);
  const session = signal<SessionState>(emptySession());
  const agent = signal<PublicAgent | null>(null);
  const streaming = signal<{ id: string; text: string } | null>(null);
  const status = signal<ChatStatus>("idle");
  const error = signal<{ code: string; text: string } | null>(null);
  /** Text for the aria-live region: a finished reply, an error. */
  const announcement = signal("");
  const messages = computed<ViewMessage[]>(() =>
    session.value.messages.filter((m): m is StoredMessage & ViewMessage => m.role === "user" || m.role === "assistant"),
  );
  /** A turn is under way; connecting does not count, a message sent then waits for the session. */
  const busy = computed(() => status.value === "sending" || status.value === "streaming");

  let credentials: StoredSession | null = loadSession(opts.storage, key);
  if (credentials && isExpired(credentials)) {
    credentials = null;
    saveSession(opts.storage, key, null);
  }
  let restored = false;
  let restoring: Promise<void> | null = null;
  let creating: Promise<void> | null = null;
  let abort: AbortController | null = null;

  function fail(e: unknown): void {
    const code = errorCode(e);
    const text = errorText(strings, code);
    batch(() => {
      error.value = { code, text };
      status.value = "error";
      announcement.value = text;
    });
    opts.emitter.emit("error", { code, message: (e as Error)?.message ?? String(e) });
  }

  function append(message: StoredMessage): void {
    session.value = reduceSession(session.value, {
      id: newId(),
      at: message.at,
      type: EVENT_TYPES.messageAppended,
      data: { message },
    });
  }

  async function restore(stored: StoredSession): Promise<void> {
    try {
      const res = await fetchSession(ctx, stored);
      batch(() => {
        session.value = res.state;
        if (res.agent) agent.value = res.agent;
      });
      restored = true;
    } catch (e) {
      // A session the worker no longer knows (expired token, wiped state) is replaced silently.
      if (isHttpError(e) && (e.status === 401 || e.status === 404)) {
        forget();
        return;
      }
      throw e;
    }
  }

  function forget(): void {
    credentials = null;
    restored = false;
    saveSession(opts.storage, key, null);
  }

  async function create(): Promise<void> {
    const res = await createSession(ctx, { siteKey: opts.siteKey, agentId: opts.agentId, locale: opts.locale });
    credentials = { sessionId: res.sessionId, token: res.token, expiresAt: res.expiresAt };
    restored = true;
    saveSession(opts.storage, key, credentials);
    batch(() => {
      agent.value = res.agent;
      session.value = res.state ?? { ...emptySession(), sessionId: res.sessionId };
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

  /** Restores the stored session, or opens a new one (only once the visitor engages). */
  async function ensureSession(): Promise<void> {
    await restoreOnce();
    if (credentials) return;
    if (!creating) {
      creating = create();
      const clear = () => void (creating = null);
      creating.then(clear, clear);
    }
    await creating;
  }

  async function connect(): Promise<void> {
    if (status.value === "idle" || status.value === "error") status.value = "connecting";
    error.value = null;
    try {
      await ensureSession();
      if (status.value === "connecting") status.value = "idle";
    } catch (e) {
      fail(e);
    }
  }

  /** Runs the turn for the messages as they stand (the last one is the visitor's). */
  async function runTurn(): Promise<void> {
    const creds = credentials;
    if (!creds) return;
    const replyId = newId();
    const ctrl = (abort = new AbortController());
    batch(() => {
      status.value = "sending";
      streaming.value = { id: replyId, text: "" };
    });
    try {
      const result = await runChatTurn({
        api: opts.api,
        token: creds.token,
        fetch: opts.fetch,
        replyId,
        signal: ctrl.signal,
        messages: messages.value.map((m) => ({ id: m.id, role: m.role, content: m.content })),
        onDelta: (_delta, text) =>
          batch(() => {
            status.value = "streaming";
            streaming.value = { id: replyId, text };
          }),
      });
      const reply: StoredMessage = {
        id: replyId,
        role: "assistant",
        content: result.text,
        status: result.end === "aborted" ? "interrupted" : "complete",
        at: Date.now(),
      };
      batch(() => {
        streaming.value = null;
        if (reply.content) append(reply);
        status.value = "idle";
        if (reply.content) announcement.value = `${strings.replied}: ${reply.content}`;
      });
      if (reply.content) opts.emitter.emit("message", toPublic(reply));
    } catch (e) {
      streaming.value = null;
      // The token expired mid-conversation: the next attempt opens a new session.
      if (isHttpError(e) && e.status === 401) forget();
      if (isAbortError(e)) status.value = "idle";
      else fail(e);
    } finally {
      if (abort === ctrl) abort = null;
    }
  }

  async function send(raw: string): Promise<void> {
    const text = raw.trim();
    if (!text || busy.value) return;
    error.value = null;
    status.value = "connecting";
    try {
      await ensureSession();
    } catch (e) {
      fail(e);
      return;
    }
    const message: StoredMessage = { id: newId(), role: "user", content: text, at: Date.now() };
    append(message);
    opts.emitter.emit("message", toPublic(message));
    await runTurn();
  }

  /** Asks again for a reply to the last visitor message (ids are reused, so the worker stores nothing twice). */
  async function retry(): Promise<void> {
    const last = messages.value[messages.value.length - 1];
    if (busy.value) return;
    if (!last || last.role !== "user") return connect();
    error.value = null;
    status.value = "connecting";
    try {
      await ensureSession();
    } catch (e) {
      fail(e);
      return;
    }
    await runTurn();
  }

  /** Stops the stream; the text so far stays, marked as interrupted. */
  function stop(): void {
    abort?.abort();
  }

  function open(): void {
    if (isOpen.value) return;
    isOpen.value = true;
    opts.emitter.emit("open", undefined);
    if (!credentials || !agent.value) void connect();
  }

  function close(): void {
    if (!isOpen.value) return;
    isOpen.value = false;
    opts.emitter.emit("close", undefined);
  }

  // A returning visitor sees their conversation without waiting for the panel to open.
  if (credentials) void restoreOnce().catch(fail);

  return {
    strings,
    locale: opts.locale,
    isOpen,
    agent,
    messages,
    streaming,
    status,
    busy,
    error,
    announcement,
    open,
    close,
    send,
    retry,
    stop,
    dispose: () => abort?.abort(),
  };
}

function toPublic(m: StoredMessage): WidgetMessage {
  return { id: m.id, role: m.role as WidgetMessage["role"], content: m.content, status: m.status };
}
