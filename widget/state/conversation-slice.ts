import { batch, computed, effect, signal, type ReadonlySignal, type Signal } from "@preact/signals";
import type { PublicAgent } from "../../shared/config/agent-config.ts";
import type { ConsentNotice } from "../../shared/session/consent.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { loadTextReact, type TextReact } from "../agent/strategies/load-text-react.ts";
import type { Strings, WidgetLocale } from "../i18n/index.ts";
import type { PhotoApi } from "../transport/photo-api.ts";
import type { ComposerParts } from "./composer-slice.ts";
import type { LiveParts } from "./live-slice.ts";
import { loadToolRuntime, usesToolRuntime } from "./load-tool-runtime.ts";
import type { StageActionsOptions } from "./stage-actions.ts";
import type { StoreBase, ViewMessage } from "./store-base.ts";
import type { TakeoverContext } from "./takeover-actions.ts";
import { buildTranscript, withLive, type TranscriptItem } from "./transcript.ts";

/** The conversation the panel shows, the panel itself, and what the lazy chunks work on in it. */
export interface ConversationSlice {
  strings: Strings;
  locale: WidgetLocale;
  /** A returning visitor: their stored conversation is being restored, to show before the panel opens. */
  returning: boolean;
  isOpen: ReadonlySignal<boolean>;
  /** Replies that arrived while the panel was closed; the launcher shows them as a badge. */
  unread: ReadonlySignal<number>;
  agent: ReadonlySignal<PublicAgent | null>;
  /** The session's folded state (stage, context) for the stage panel. */
  state: ReadonlySignal<SessionState>;
  messages: ReadonlySignal<ViewMessage[]>;
  transcript: ReadonlySignal<readonly TranscriptItem[]>;
  /**
   * Changes whenever the transcript would, without building it: the list follows this on every streamed
   * token and builds the transcript only when it draws.
   */
  transcriptChanges: ReadonlySignal<unknown>;
  advice: ReadonlySignal<SessionState["advice"]>;
  /** The consent notice the worker asks the visitor to agree to first (its refusal carried it), or null. */
  consent: Signal<ConsentNotice | null>;
  /** What the stage panel's actions work with; they are made in its own (lazy) chunk, see stageActionsFor. */
  stageApi: StageActionsOptions;
  /** An edge tool a visitor's card calls itself (booking): the worker runs it; its events fold in at once. */
  runTool(name: string, args: unknown): Promise<Record<string, unknown>>;
  /** What the photo kit (a lazy chunk) needs to upload and read photos with the session's token. */
  photoApi: PhotoApi;
  /** What the visitor's consent and rights (privacy chunk) work with. */
  privacy: TakeoverContext;
  open(): void;
  close(): void;
  /** A new conversation: the old session's credentials are dropped, a new one opens when needed. */
  clear(): void;
}

/** The conversation: its transcript, the panel open or closed, a new conversation in place of the old one. */
export function createConversationSlice(base: StoreBase, live: LiveParts, composer: ComposerParts) {
  const { opts, session, status, error, notice, announcement, host, connect, isOpen } = base;
  const { agent } = session;
  const textReact = signal<TextReact | null>(null);

  /** The stored conversation's items: rebuilt when the session changes, not on every streamed chunk. */
  const stored = computed(() =>
    buildTranscript(
      session.state.value.messages,
      session.state.value.advice,
      agent.value?.strategy ?? "native",
      textReact.value?.readReactStep,
      session.state.value.handoffs,
    ),
  );

  function open(): void {
    if (isOpen.value) return;
    isOpen.value = true;
    host.opened();
    if (composer.slice.queued.value && composer.slice.online.value) void composer.flushQueued();
    else if (!session.hasCredentials() || !agent.value) void connect();
  }

  function close(): void {
    if (!isOpen.value) return;
    isOpen.value = false;
    host.closed();
  }

  function clear(): void {
    live.drop();
    session.reset();
    composer.returnToDraft();
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
  const dispose = effect(() => {
    const config = agent.value;
    if (config && usesToolRuntime(config)) void loadToolRuntime().catch(() => {});
    if (config?.strategy === "text-react")
      void loadTextReact().then(
        (m) => void (textReact.value = m),
        () => {},
      );
  });

  const slice: ConversationSlice = {
    strings: opts.strings,
    locale: opts.locale,
    returning: base.returning,
    isOpen,
    unread: host.unread,
    agent,
    state: session.state,
    messages: base.messages,
    transcript: computed(() => withLive(stored.value, live.live.value, session.state.value.messages)),
    transcriptChanges: computed(() => [session.state.value, agent.value?.strategy, live.live.value, textReact.value]),
    advice: computed(() => session.state.value.advice),
    consent: base.consent,
    stageApi: { session },
    runTool: (name, args) => session.runTool(name, args) as Promise<Record<string, unknown>>,
    photoApi: { api: opts.api, fetch: opts.fetch, auth: session.ensure },
    privacy: base.ctx,
    open,
    close,
    clear,
  };
  return { slice, dispose };
}
