import { batch, computed, effect, signal } from "@preact/signals";
import { EVENT_TYPES, ROUTES, type Rating } from "../../shared/protocol.ts";
import type { SessionEvent, SessionState, StoredMessage } from "../../shared/session.ts";
import { newId } from "../agent/ids.ts";
import type { StepView } from "../agent/loop.ts";
import type { Emitter, WidgetMessage } from "./events.ts";
import { errorText, stringsFor, type WidgetLocale } from "../i18n/index.ts";
import { errorCode, isAbortError, isHttpError } from "../transport/errors.ts";
import { requestJson, type FetchLike } from "../transport/http.ts";
import { loadToolRuntime, runTurn, usesToolRuntime } from "./run-turn.ts";
import { createSessionStore } from "./session-store.ts";
import type { StageActionsOptions } from "./stage-actions.ts";
import { defaultSessionStorage, loadText, saveText, sessionKey, type KeyValueStore } from "./session-storage.ts";
import { buildTranscript } from "./transcript.ts";

export type ChatStatus = "idle" | "connecting" | "sending" | "streaming" | "error";

export interface ChatStoreOptions {
  api: string;
  siteKey: string;
  agentId: string;
  identity?: string;
  locale: WidgetLocale;
  storage: KeyValueStore | null;
  fetch?: FetchLike;
  emitter: Emitter;
  toolTimeoutMs?: number;
  /** Where the composer's draft and a message waiting for the network survive a reload (default: sessionStorage). */
  draftStorage?: KeyValueStore | null;
  /** The page enabled debug mode: the panel offers the session's trace. */
  debug?: boolean;
}

/** One step of the session's trace (route decision, completion, retry, tool call, stage...). */
export type TraceEntry = SessionState["trace"][number];

export type ViewMessage = Pick<StoredMessage, "id" | "content" | "status"> & { role: "user" | "assistant" };

export type ChatStore = ReturnType<typeof createChatStore>;

/** The widget's state in signals, and the actions that change it. Components only read these. */
export function createChatStore(opts: ChatStoreOptions) {
  const strings = stringsFor(opts.locale);
  const session = createSessionStore({ ...opts, locale: opts.locale });
  const { agent } = session;

  const isOpen = signal(false);
  const live = signal<StepView | null>(null);
  const status = signal<ChatStatus>("idle");
  const error = signal<{ code: string; text: string } | null>(null);
  /** A note under the conversation that is not a message, e.g. the step limit was reached. */
  const notice = signal("");
  /** Text for the aria-live region: a finished reply, an error. */
  const announcement = signal("");
  /** Replies that arrived while the panel was closed; the launcher shows them as a badge. */
  const unread = signal(0);
  const messages = computed<ViewMessage[]>(() =>
    session.state.value.messages.filter((m): m is StoredMessage & ViewMessage => m.role === "user" || m.role === "assistant"),
  );
  const streaming = computed(() => (live.value ? { id: live.value.id, text: live.value.answer } : null));
  const advice = computed(() => session.state.value.advice);
  const transcript = computed(() =>
    buildTranscript(session.state.value.messages, session.state.value.advice, agent.value?.strategy ?? "native", live.value),
  );
  const busy = computed(() => status.value === "sending" || status.value === "streaming");
  /** What the stage panel's actions work with; they are made in its own (lazy) chunk, see stageActionsFor. */
  const stageApi: StageActionsOptions = { api: opts.api, fetch: opts.fetch, session };

  /**
   * The network (issue 5.3): nothing typed is lost. The composer's draft is kept (sessionStorage,
   * so a reload keeps it too); a message sent while offline waits in `queued` and goes when the
   * browser is back online; a turn that failed for the network is retried then.
   */
  const drafts = opts.draftStorage === undefined ? defaultSessionStorage() : opts.draftStorage;
  const keyBase = sessionKey(opts.siteKey, opts.agentId, opts.identity);
  const draftKey = `${keyBase}:draft`;
  const queueKey = `${keyBase}:outbox`;
  const online = signal(typeof navigator === "undefined" || navigator.onLine !== false);
  const draft = signal(loadText(drafts, draftKey));
  const queued = signal<string | null>(loadText(drafts, queueKey) || null);

  function setDraft(text: string): void {
    draft.value = text;
    saveText(drafts, draftKey, text);
  }

  function hold(text: string): void {
    queued.value = queued.value ? `${queued.value}\n\n${text}` : text;
    saveText(drafts, queueKey, queued.value);
  }

  /** Sends the message that waited for the network (it waits again if the network is still down). */
  async function flushQueued(): Promise<void> {
    const text = queued.value;
    if (!text || busy.value) return;
    queued.value = null;
    saveText(drafts, queueKey, "");
    await send(text);
  }

  const onOnline = () => {
    online.value = true;
    const code = error.value?.code;
    if (queued.value) void flushQueued();
    else if (status.value === "error" && (code === "network" || code === "timeout")) void retry();
  };
  const onOffline = () => void (online.value = false);
  const win = typeof window === "undefined" ? null : window;
  win?.addEventListener("online", onOnline);
  win?.addEventListener("offline", onOffline);

  let abort: AbortController | null = null;
  /** Bumped by clear(): a turn of the dropped conversation must not write into the new one. */
  let epoch = 0;

  function fail(e: unknown, message?: string): void {
    const code = errorCode(e);
    const text = message ?? errorText(strings, code, isHttpError(e) ? e.retryAfter : undefined, opts.locale);
    batch(() => {
      error.value = { code, text };
      status.value = "error";
      announcement.value = text;
    });
    opts.emitter.emit("error", { code, message: (e as Error)?.message ?? String(e) });
  }

  async function connect(): Promise<void> {
    if (status.value === "idle" || status.value === "error") status.value = "connecting";
    error.value = null;
    try {
      await session.ensure();
      if (status.value === "connecting") status.value = "idle";
    } catch (e) {
      fail(e);
    }
  }

  /** Runs the turn for the conversation as it stands (the last message is the visitor's). */
  async function turn(): Promise<void> {
    const config = agent.value;
    if (!config || !session.hasCredentials()) return;
    const ctrl = (abort = new AbortController());
    const mine = epoch;
    const before = session.state.value.messages.length;
    const adviceBefore = session.state.value.advice?.length ?? 0;
    batch(() => {
      status.value = "sending";
      notice.value = "";
    });
    try {
      const result = await runTurn({
        api: opts.api,
        fetch: opts.fetch,
        session,
        agent: config,
        signal: ctrl.signal,
        toolTimeoutMs: opts.toolTimeoutMs,
        onStep: (view) =>
          batch(() => {
            if (view) status.value = "streaming";
            live.value = view;
          }),
      });
      if (mine !== epoch) return;
      const partial = live.value;
      batch(() => {
        // Stopped mid-stream: keep what was shown, marked as interrupted (the worker stores it so too).
        if (result.end === "aborted") keepInterrupted(partial);
        live.value = null;
        status.value = "idle";
        if (result.end === "step_limit") notice.value = strings.stepLimit;
      });
      const replies = session.state.value.messages.slice(before).filter((m) => m.role === "assistant" && m.content);
      const last = replies.at(-1);
      if (last) {
        announcement.value = `${strings.replied}: ${last.content}`;
        opts.emitter.emit("message", toPublic(last));
        if (!isOpen.value) opts.emitter.emit("unread", ++unread.value);
      }
      for (const a of session.state.value.advice?.slice(adviceBefore) ?? []) {
        opts.emitter.emit("advice", { id: a.id, title: a.title, content: a.content, severity: a.severity });
      }
      void session.flush();
    } catch (e) {
      const partial = mine === epoch ? live.value : null;
      live.value = null;
      // The token expired mid-conversation: the next attempt opens a new session.
      if (isHttpError(e) && e.status === 401) session.forget();
      if (isAbortError(e)) status.value = "idle";
      else if (partial?.answer) {
        // The stream broke after it began (the provider broke off, the connection dropped): the
        // text shown stays, marked interrupted as the worker stores it, and the visitor can retry.
        keepInterrupted(partial);
        fail(e, strings.errCut);
      } else fail(e);
    } finally {
      if (abort === ctrl) abort = null;
    }
  }

  function keepInterrupted(partial: StepView | null): void {
    if (!partial?.answer) return;
    const message: StoredMessage = { id: partial.id, role: "assistant", content: partial.answer, status: "interrupted", at: Date.now() };
    session.apply([{ id: `msg:${partial.id}`, at: message.at, type: EVENT_TYPES.messageAppended, data: { message } }]);
  }

  async function ready(): Promise<boolean> {
    error.value = null;
    status.value = "connecting";
    try {
      await session.ensure();
      return true;
    } catch (e) {
      fail(e);
      return false;
    }
  }

  async function send(raw: string): Promise<void> {
    const text = raw.trim();
    if (!text || busy.value) return;
    // Offline, or the session cannot be opened for the network: the message waits, nothing is lost.
    if (!online.value) return hold(text);
    if (!(await ready())) {
      if (error.value?.code === "network" || error.value?.code === "timeout") hold(text);
      return;
    }
    const message: StoredMessage = { id: newId(), role: "user", content: text, at: Date.now() };
    session.apply([{ id: `msg:${message.id}`, at: message.at, type: EVENT_TYPES.messageAppended, data: { message } }]);
    opts.emitter.emit("message", toPublic(message));
    await turn();
  }

  /**
   * Asks again for a reply to the last visitor message (ids are reused, so the worker stores nothing
   * twice), also after a reply that was stopped midway (the model does not see the fragment).
   */
  async function retry(): Promise<void> {
    const last = messages.value[messages.value.length - 1];
    if (busy.value) return;
    if (queued.value) return flushQueued();
    if (!last || (last.role !== "user" && last.status !== "interrupted")) return connect();
    if (await ready()) await turn();
  }

  /** Stops the stream and any running tools; the text so far stays, marked as interrupted. */
  function stop(): void {
    abort?.abort();
  }

  function open(): void {
    if (isOpen.value) return;
    isOpen.value = true;
    opts.emitter.emit("open", undefined);
    if (unread.value) opts.emitter.emit("unread", (unread.value = 0));
    if (queued.value && online.value) void flushQueued();
    else if (!session.hasCredentials() || !agent.value) void connect();
  }

  function close(): void {
    if (!isOpen.value) return;
    isOpen.value = false;
    opts.emitter.emit("close", undefined);
  }

  /** A new conversation: the old session's credentials are dropped, a new one opens when needed. */
  function clear(): void {
    abort?.abort();
    epoch++;
    session.reset();
    // A message still waiting for the network goes back into the composer, not into the new conversation.
    if (queued.value) {
      setDraft(draft.value ? `${draft.value}\n\n${queued.value}` : queued.value);
      queued.value = null;
      saveText(drafts, queueKey, "");
    }
    batch(() => {
      live.value = null;
      error.value = null;
      notice.value = "";
      announcement.value = "";
      status.value = "idle";
    });
    if (isOpen.value) void connect();
  }

  // Agents with tools need the tool runtime on the first turn: as soon as the config is known (a new
  // session, or a restored one), fetch it while the visitor reads and types.
  effect(() => {
    const config = agent.value;
    if (config && usesToolRuntime(config)) void loadToolRuntime().catch(() => {});
  });

  // Stage workflows tell the host page when the stage changes (after a turn, an edit, a completion).
  let lastStage = session.state.peek().stage.current;
  effect(() => {
    const stage = session.state.value.stage;
    if (stage.current === lastStage) return;
    lastStage = stage.current;
    if (agent.peek()?.stages.length) opts.emitter.emit("stage", { current: stage.current, completed: [...stage.completed], done: stage.done });
  });

  /** The visitor's ratings by reply message id, from the session (the worker stores them as events). */
  const feedback = computed(() => session.state.value.feedback ?? {});

  /** A thumbs up or down on a reply; a thumbs-down's comment goes to the site's strategy desk. */
  async function rate(messageId: string, rating: Rating, comment?: string): Promise<void> {
    const { sessionId } = await session.ensure();
    const url = opts.api + ROUTES.sessionFeedback.replace(":id", encodeURIComponent(sessionId));
    try {
      const body = { messageId, rating, ...(comment ? { comment } : {}) };
      const res = await requestJson<{ events: SessionEvent[] }>(url, { body, token: session.token(), fetch: opts.fetch });
      session.apply(res.events);
    } catch (e) {
      fail(e);
    }
  }

  /** The session's trace as the worker keeps it (GET /v1/sessions/:id/trace with the session token). */
  async function fetchTrace(): Promise<TraceEntry[]> {
    const { sessionId } = await session.ensure();
    const res = await requestJson<{ trace: TraceEntry[] }>(`${opts.api}/v1/sessions/${encodeURIComponent(sessionId)}/trace`, { token: session.token(), fetch: opts.fetch });
    return res.trace;
  }

  // A returning visitor sees their conversation without waiting for the panel to open.
  const returning = session.hasCredentials();
  if (returning) void session.restoreOnce().catch(fail);

  return {
    strings,
    locale: opts.locale,
    /** A returning visitor: their stored conversation is being restored, to show before the panel opens. */
    returning,
    isOpen,
    agent,
    messages,
    transcript,
    advice,
    /** The session's folded state (stage, context) for the stage panel. */
    state: session.state,
    stageApi,
    streaming,
    status,
    busy,
    error,
    notice,
    announcement,
    unread,
    /** The browser's online state; offline, the panel says so and messages wait. */
    online,
    /** A message sent while offline, waiting to go. */
    queued,
    /** The composer's text, kept across closing the panel and reloads. */
    draft,
    setDraft,
    debug: !!opts.debug,
    fetchTrace,
    feedback,
    rate,
    open,
    close,
    send,
    retry,
    stop,
    clear,
    dispose: () => {
      abort?.abort();
      win?.removeEventListener("online", onOnline);
      win?.removeEventListener("offline", onOffline);
    },
  };
}

function toPublic(m: StoredMessage): WidgetMessage {
  return { id: m.id, role: m.role as WidgetMessage["role"], content: m.content, status: m.status };
}
