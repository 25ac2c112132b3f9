import { batch, computed, effect, signal } from "@preact/signals";
import type { Rating } from "../../shared/protocol.ts";
import type { SessionState, StoredMessage } from "../../shared/session.ts";
import { messageEvent } from "../../shared/events.ts";
import * as ROUTES from "../../shared/routes.ts";
import { newId } from "../agent/ids.ts";
import { loadTextReact, type TextReact } from "../agent/strategies/load-text-react.ts";
import type { Emitter } from "./events.ts";
import { errorText, type Strings, type WidgetLocale } from "../i18n/index.ts";
import { errorCode, isHttpError, type HttpError } from "../transport/errors.ts";
import type { ConsentNotice } from "../../shared/consent.ts";
import type { FetchLike } from "../transport/http.ts";
import { createHostNotifications } from "./host-notifications.ts";
import { createOutbox } from "./outbox.ts";
import { loadToolRuntime, usesToolRuntime } from "./load-tool-runtime.ts";
import { createSessionStore } from "./session-store.ts";
import type { StageActionsOptions } from "./stage-actions.ts";
import { sessionKey, type KeyValueStore } from "./browser-storage.ts";
import { buildTranscript, withLive } from "./transcript.ts";
import { createTurnRunner, type ChatStatus } from "./turn-runner.ts";
import type { LiveSync } from "./live-sync.ts";
import type { TakeoverContext } from "./takeover-actions.ts";

export type { ChatStatus };

export interface ChatStoreOptions {
  api: string;
  siteKey: string;
  agentId: string;
  identity?: string;
  draft?: boolean;
  locale: WidgetLocale;
  /** The strings of `locale` (i18n loadStrings). */
  strings: Strings;
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

/**
 * The widget's state in signals, and the actions that change it; components only read these. It
 * composes the session (session-store), the offline outbox and draft (outbox), the turn runner
 * (turn-runner) and what the host page is told (host-notifications); `dispose` ends what they started.
 */
export function createChatStore(opts: ChatStoreOptions) {
  const strings = opts.strings;
  const session = createSessionStore({ ...opts, locale: opts.locale });
  const { agent } = session;

  const isOpen = signal(false);
  const textReact = signal<TextReact | null>(null);
  const status = signal<ChatStatus>("idle");
  const error = signal<{ code: string; text: string } | null>(null);
  const notice = signal("");
  /** The consent notice the worker asks the visitor to agree to first (its refusal carried it), or null. */
  const consent = signal<ConsentNotice | null>(null);
  /** Text for the aria-live region: a finished reply, an error. */
  const announcement = signal("");
  const host = createHostNotifications(opts.emitter, session, isOpen);
  const outbox = createOutbox({
    storage: opts.draftStorage,
    keyBase: sessionKey(opts.siteKey, opts.agentId, opts.identity),
    onOnline: () => {
      const code = error.value?.code;
      if (outbox.queued.value) void flushQueued();
      else if (status.value === "error" && (code === "network" || code === "timeout")) void retry();
    },
  });
  const runner = createTurnRunner({
    api: opts.api,
    fetch: opts.fetch,
    toolTimeoutMs: opts.toolTimeoutMs,
    session,
    strings,
    status,
    notice,
    fail: turnFailed,
    done: (replies, advice) => {
      goLive();
      const last = replies.at(-1);
      if (last) {
        announcement.value = `${strings.replied}: ${last.content}`;
        host.replied(last);
      }
      host.advised(advice);
    },
  });
  const { live } = runner;
  /**
   * The session's live channel (live-sync.ts, a lazy chunk): started after the first reply, or as a
   * stored session is restored, never before (the first reply's bytes are budgeted); dropped with the
   * conversation.
   */
  let liveSync: Promise<LiveSync | null> | null = null;
  const liveChunk = () => import("./live-sync.ts");
  function goLive(): void {
    liveSync ??= liveChunk().then(
      (m) =>
        m.startLiveSync({
          api: opts.api,
          fetch: opts.fetch,
          session,
          live,
          status,
          replied: host.replied,
          erased: clear,
        }),
      () => (liveSync = null),
    );
  }
  const endLive = () => {
    void liveSync?.then((l) => l?.close());
    liveSync = null;
  };

  const messages = computed<ViewMessage[]>(() =>
    session.state.value.messages.filter(
      (m): m is StoredMessage & ViewMessage => m.role === "user" || m.role === "assistant",
    ),
  );
  /** The reply under way; `ended`: its text is complete (the provider's finish reason came). */
  const streaming = computed(() =>
    live.value ? { id: live.value.id, text: live.value.answer, ended: !!live.value.ended } : null,
  );
  const advice = computed(() => session.state.value.advice);
  /** The stored conversation's items: rebuilt when the session changes, not on every streamed chunk. */
  const stored = computed(() =>
    buildTranscript(
      session.state.value.messages,
      session.state.value.advice,
      agent.value?.strategy ?? "native",
      textReact.value?.parseReact,
      session.state.value.handoffs,
    ),
  );
  const transcript = computed(() => withLive(stored.value, live.value, session.state.value.messages));
  /**
   * Changes whenever the transcript would, without building it: the list follows this on every streamed
   * token and builds the transcript only when it draws.
   */
  const transcriptChanges = computed(() => [session.state.value, agent.value?.strategy, live.value, textReact.value]);
  const busy = computed(() => status.value === "sending" || status.value === "streaming");
  /** What the stage panel's actions work with; they are made in its own (lazy) chunk, see stageActionsFor. */
  const stageApi: StageActionsOptions = { session };

  function fail(e: unknown, message?: string): void {
    // Consent first (or again, for a new version): the panel shows the notice; nothing was stored.
    const asked = (e as HttpError).detail?.consent;
    if (asked) return void ((consent.value = asked), (status.value = "idle"));
    const code = errorCode(e);
    const text = message ?? errorText(strings, code, isHttpError(e) ? e.retryAfter : undefined, opts.locale);
    batch(() => {
      error.value = { code, text };
      status.value = "error";
      announcement.value = text;
    });
    host.failed(code, (e as Error)?.message ?? String(e));
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

  /** A turn is being asked again in a new session, after the worker erased a keep-nothing conversation. */
  let reopened = false;

  /** A person from the site's staff handles the conversation (takeover): messages go to them, not the model. */
  const withPerson = () => session.state.value.handler?.kind === "person";

  async function turn(): Promise<void> {
    const config = agent.value;
    if (withPerson()) {
      // Through the live channel's chunk: a page that knows a person joined has it (it heard them there).
      const last = messages.value.at(-1);
      goLive();
      status.value = "idle";
      if (last?.role === "user")
        await liveChunk()
          .then((m) => m.sendToPerson({ api: opts.api, fetch: opts.fetch, session }, last))
          // Handed back meanwhile (or the person left without doing so): the agent answers it.
          .catch((e) =>
            errorCode(e) === "not_taken_over" ? session.refresh().then(() => void (withPerson() || turn())) : fail(e),
          );
    } else if (config && session.hasCredentials()) await runner.turn(config);
  }

  /**
   * A turn a person's joining cut (the worker stopped the reply), or refused (`taken_over`: the page had
   * not heard of the join yet), is no error: the message goes to the person instead.
   */
  function turnFailed(e: unknown, message?: string): void {
    // A site that keeps nothing erased the conversation after its minutes: the page opens the next one,
    // carrying what it shows (session-store.ts), and asks again, once.
    if (errorCode(e) === "not_found" && agent.value?.keepNothingMinutes && !session.hasCredentials() && !reopened) {
      reopened = true;
      status.value = "idle";
      void retry().finally(() => (reopened = false));
      return;
    }
    if (errorCode(e) !== "taken_over" && !withPerson()) return fail(e, message);
    status.value = "idle";
    void session.refresh().then(() => void (withPerson() && turn()), fail);
  }

  /** Sends the message that waited for the network (it waits again if the network is still down). */
  async function flushQueued(): Promise<void> {
    if (!outbox.queued.value || busy.value) return;
    await send(outbox.take()!);
  }

  /** The visitor's message, with the ids of photos already uploaded to the session (photo kit). */
  async function send(raw: string, photos: string[] = []): Promise<void> {
    const text = raw.trim();
    if ((!text && !photos.length) || busy.value) return;
    // Offline, or the session cannot be opened for the network: the message waits, nothing is lost.
    if (!outbox.online.value) return outbox.hold(text);
    if (!(await ready())) {
      // It waits for the network, or for the visitor's consent (sent once they agreed: retry()).
      if (consent.value || error.value?.code === "network" || error.value?.code === "timeout") outbox.hold(text);
      return;
    }
    const message: StoredMessage = { id: newId(), role: "user", content: text, at: Date.now() };
    if (photos.length) message.photos = photos;
    session.apply([messageEvent(message)]);
    host.sent(message);
    await turn();
  }

  /**
   * Asks again for a reply to the last visitor message (ids are reused, so the worker stores nothing
   * twice), also after a reply that was stopped midway (the model does not see the fragment).
   */
  async function retry(): Promise<void> {
    // The last stored message: a visitor's, a cut reply, or (a turn that failed between steps) a
    // tool step or a tool's result; a finished reply has nothing to retry.
    const last = session.state.value.messages.at(-1);
    if (busy.value) return;
    if (outbox.queued.value) return flushQueued();
    if (!last || (last.role == "assistant" && last.status != "interrupted" && !last.toolCalls)) return connect();
    if (await ready()) await turn();
  }

  function open(): void {
    if (isOpen.value) return;
    isOpen.value = true;
    host.opened();
    if (outbox.queued.value && outbox.online.value) void flushQueued();
    else if (!session.hasCredentials() || !agent.value) void connect();
  }

  function close(): void {
    if (!isOpen.value) return;
    isOpen.value = false;
    host.closed();
  }

  /** A new conversation: the old session's credentials are dropped, a new one opens when needed. */
  function clear(): void {
    endLive();
    runner.drop();
    session.reset();
    outbox.returnToDraft();
    batch(() => {
      error.value = null;
      notice.value = "";
      announcement.value = "";
      status.value = "idle";
    });
    if (isOpen.value) void connect();
  }

  // Agents with tools need the tool runtime on the first turn: as soon as the config is known (a new
  // session, or a restored one), fetch it while the visitor reads and types.
  // A text ReAct agent's replies are read with its parser, a lazy chunk of its own.
  const disposePreload = effect(() => {
    const config = agent.value;
    if (config && usesToolRuntime(config)) void loadToolRuntime().catch(() => {});
    if (config?.strategy === "text-react")
      void loadTextReact().then(
        (m) => void (textReact.value = m),
        () => {},
      );
  });

  /** The visitor's ratings by reply message id, from the session (the worker stores them as events). */
  const feedback = computed(() => session.state.value.feedback ?? {});

  /** A thumbs up or down on a reply; a thumbs-down's comment goes to the site's strategy desk. */
  async function rate(messageId: string, rating: Rating, comment?: string): Promise<void> {
    try {
      const body = { messageId, rating, ...(comment ? { comment } : {}) };
      const res = await session.api.call(ROUTES.sessionFeedback, await session.ensure(), { body });
      session.apply(res.events);
    } catch (e) {
      fail(e);
    }
  }

  /** The session's trace as the worker keeps it (GET /v1/sessions/:id/trace with the session token). */
  async function fetchTrace(): Promise<TraceEntry[]> {
    return (await session.api.call(ROUTES.trace, await session.ensure())).trace;
  }

  // A returning visitor sees their conversation without waiting for the panel to open.
  // A reply that was streaming when the page went away goes on where it is, and the turn with it; a
  // turn that went away between steps (tools asked for, the next completion not begun) goes on too.
  const returning = session.hasCredentials();
  if (returning)
    void session.restoreOnce().then(() => {
      const id = session.takeStreaming();
      const a = agent.value;
      if (id && a && !busy.value) void runner.turn(a, id);
      else if (a && usesToolRuntime(a))
        void loadToolRuntime().then((m) => {
          if (m.pendingStep(session.state.value, a.maxSteps) && !busy.value) void runner.turn(a);
        });
      if (session.hasCredentials()) goLive();
    }, fail);

  const ctx = { api: opts.api, fetch: opts.fetch, session };
  return {
    strings,
    locale: opts.locale,
    /** A returning visitor: their stored conversation is being restored, to show before the panel opens. */
    returning,
    isOpen,
    agent,
    messages,
    transcript,
    transcriptChanges,
    advice,
    /** The session's folded state (stage, context) for the stage panel. */
    state: session.state,
    stageApi,
    /** An edge tool a visitor's card calls itself (booking): the worker runs it; its events fold in at once. */
    runTool: (name: string, args: unknown) =>
      session.api.call(ROUTES.tool, session.auth(), { body: { arguments: args } }, { name }).then((r) => {
        if (r.events?.length) session.apply(r.events);
        return r.result as Record<string, unknown>;
      }),
    /** What the photo kit (a lazy chunk) needs to upload and read photos with the session's token. */
    photoApi: { api: opts.api, fetch: opts.fetch, auth: session.ensure },
    streaming,
    status,
    busy,
    error,
    notice,
    announcement,
    unread: host.unread,
    /** The browser's online state; offline, the panel says so and messages wait. */
    online: outbox.online,
    /** A message sent while offline, waiting to go. */
    queued: outbox.queued,
    /** The composer's text, kept across closing the panel and reloads. */
    draft: outbox.draft,
    setDraft: outbox.setDraft,
    debug: !!opts.debug,
    fetchTrace,
    feedback,
    rate,
    open,
    close,
    send,
    retry,
    stop: () => {
      runner.stop();
      void liveSync?.then((l) => l?.stop());
    },
    clear,
    /** Opens the live channel now (a person was asked for before any reply: their joining must be heard). */
    goLive,
    /** What takeover's steps (takeover-actions.ts) work with, and the visitor's consent and rights (privacy chunk). */
    takeover: ctx as TakeoverContext,
    privacy: ctx,
    consent,
    dispose: () => {
      endLive();
      runner.stop();
      outbox.dispose();
      host.dispose();
      disposePreload();
    },
  };
}
