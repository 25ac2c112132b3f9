import { batch, computed, signal, type ReadonlySignal, type Signal } from "@preact/signals";
import type { PublicAgent } from "../../shared/config/agent-config.ts";
import { messageEvent } from "../../shared/session/events.ts";
import type { StepView } from "../agent/loop.ts";
import { errorCode, isAbortError, isHttpError } from "../transport/errors.ts";
import { runAgentTurn } from "./agent-turn.ts";
import type { LiveSync } from "./live-sync.ts";
import { loadToolRuntime, usesToolRuntime } from "./load-tool-runtime.ts";
import type { ComposerSlice } from "./composer-slice.ts";
import type { ConversationSlice } from "./conversation-slice.ts";
import type { StoreBase } from "./store-base.ts";

export type ChatStatus = "idle" | "connecting" | "sending" | "streaming" | "error";

/** The turn under way: its status, the reply as it streams, its outcome; and the session's live channel. */
export interface LiveSlice {
  status: ReadonlySignal<ChatStatus>;
  /** A turn is sending or streaming: the composer waits. */
  busy: ReadonlySignal<boolean>;
  /** The reply under way; `ended`: its text is complete (the provider's finish reason came). */
  streaming: ReadonlySignal<{ id: string; text: string; ended: boolean } | null>;
  /** The last failure: its code, and the text the visitor reads. */
  error: ReadonlySignal<{ code: string; text: string } | null>;
  /** A note under the conversation that is not a message, e.g. the step limit was reached. */
  notice: Signal<string>;
  /** Text for the aria-live region: a finished reply, an error. */
  announcement: Signal<string>;
  /** Stops the reply under way, this page's or (through the live channel) another tab's; its text stays. */
  stop(): void;
}

/**
 * What the live slice asks of the whole store: a new conversation when the old one was erased (from
 * another tab, or by the site), and the last visitor message's reply again (a keep-nothing reopen).
 */
export type LiveNeeds = Pick<ConversationSlice & ComposerSlice, "clear" | "retry">;

/**
 * The turns: one at a time, abortable, each shown live while it streams, and sent to whoever answers:
 * the agent (agent-turn.ts), or the person from the site's staff who took the conversation over. A turn
 * of a conversation that was dropped meanwhile (clear) writes nothing into the new one. The session's
 * live channel (live-sync.ts, a lazy chunk) starts after the first reply, or as a stored session is
 * restored, never before (the first reply's bytes are budgeted); it is dropped with the conversation.
 */
export function createLiveSlice(base: StoreBase, needs: LiveNeeds) {
  const { opts, session, status, error, notice, announcement, host, fail } = base;
  const { strings } = opts;
  /** The step streaming now: this page's turn, or another tab's reply (the live channel shows it here). */
  const live = signal<StepView | null>(null);
  const busy = computed(() => status.value === "sending" || status.value === "streaming");
  let abort: AbortController | null = null;
  /** Bumped by drop(): a turn of the dropped conversation must not write into the new one. */
  let epoch = 0;
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
          erased: () => needs.clear(),
        }),
      () => (liveSync = null),
    );
  }
  const endLive = () => {
    void liveSync?.then((l) => l?.close());
    liveSync = null;
  };

  function keepInterrupted(partial: StepView | null): void {
    if (!partial?.answer) return;
    session.apply([
      messageEvent({
        id: partial.id,
        role: "assistant",
        content: partial.answer,
        status: "interrupted",
        at: Date.now(),
      }),
    ]);
  }

  /** The agent's turn for the conversation as it stands (the last message is the visitor's). */
  async function agentTurn(agent: PublicAgent, resumeId?: string): Promise<void> {
    const ctrl = (abort = new AbortController());
    const mine = epoch;
    const before = session.state.value.messages.length;
    const adviceBefore = session.state.value.advice?.length ?? 0;
    batch(() => {
      status.value = "sending";
      notice.value = "";
    });
    try {
      const result = await runAgentTurn({
        api: opts.api,
        fetch: opts.fetch,
        session,
        agent,
        signal: ctrl.signal,
        toolTimeoutMs: opts.toolTimeoutMs,
        resumeId,
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
      // The replies it added (the last one is announced) and the advice it recorded.
      const { messages, advice } = session.state.value;
      const replies = messages.slice(before).filter((m) => m.role === "assistant" && m.content);
      goLive();
      const last = replies.at(-1);
      if (last) {
        announcement.value = `${strings.replied}: ${last.content}`;
        host.replied(last);
      }
      host.advised(advice?.slice(adviceBefore) ?? []);
      void session.flush();
    } catch (e) {
      const partial = mine === epoch ? live.value : null;
      live.value = null;
      // The token expired mid-conversation, or the worker erased the conversation of a site that keeps
      // nothing (after its minutes): the next attempt opens a new session.
      const erased = isHttpError(e) && e.status === 404 && e.code === "not_found" && agent.keepNothingMinutes;
      if ((isHttpError(e) && e.status === 401) || erased) session.forget();
      if (isAbortError(e)) status.value = "idle";
      else if (partial?.answer) {
        // The stream broke after it began (the provider broke off, the connection dropped): the
        // text shown stays, marked interrupted as the worker stores it, and the visitor can retry.
        keepInterrupted(partial);
        turnFailed(e, strings.errCut);
      } else turnFailed(e);
    } finally {
      if (abort === ctrl) abort = null;
    }
  }

  /** A person from the site's staff handles the conversation (takeover): messages go to them, not the model. */
  const withPerson = () => session.state.value.handler?.kind === "person";
  /** A turn is being asked again in a new session, after the worker erased a keep-nothing conversation. */
  let reopened = false;

  /** The turn for the conversation as it stands: the agent's, or the visitor's message handed to the person. */
  async function turn(): Promise<void> {
    const config = session.agent.value;
    if (withPerson()) {
      // Through the live channel's chunk: a page that knows a person joined has it (it heard them there).
      const last = base.messages.value.at(-1);
      goLive();
      status.value = "idle";
      if (last?.role === "user")
        await liveChunk()
          .then((m) => m.sendToPerson(base.ctx, last))
          // Handed back meanwhile (or the person left without doing so): the agent answers it.
          .catch((e) =>
            errorCode(e) === "not_taken_over" ? session.refresh().then(() => void (withPerson() || turn())) : fail(e),
          );
    } else if (config && session.hasCredentials()) await agentTurn(config);
  }

  /**
   * A failed turn; `message` replaces the error's own text (a reply cut after it began). A turn a
   * person's joining cut (the worker stopped the reply), or refused (`taken_over`: the page had not
   * heard of the join yet), is no error: the message goes to the person instead.
   */
  function turnFailed(e: unknown, message?: string): void {
    // A site that keeps nothing erased the conversation after its minutes: the page opens the next one,
    // carrying what it shows (session-store.ts), and asks again, once.
    const keepsNothing = session.agent.value?.keepNothingMinutes;
    if (errorCode(e) === "not_found" && keepsNothing && !session.hasCredentials() && !reopened) {
      reopened = true;
      status.value = "idle";
      void needs.retry().finally(() => (reopened = false));
      return;
    }
    if (errorCode(e) !== "taken_over" && !withPerson()) return fail(e, message);
    status.value = "idle";
    void session.refresh().then(() => void (withPerson() && turn()), fail);
  }

  // A returning visitor sees their conversation without waiting for the panel to open.
  // A reply that was streaming when the page went away goes on where it is, and the turn with it; a
  // turn that went away between steps (tools asked for, the next completion not begun) goes on too.
  if (base.returning)
    void session.restoreOnce().then(() => {
      const id = session.takeStreaming();
      const a = session.agent.value;
      if (id && a && !busy.value) void agentTurn(a, id);
      else if (a && usesToolRuntime(a))
        void loadToolRuntime().then((m) => {
          if (m.pendingStep(session.state.value, a.maxSteps) && !busy.value) void agentTurn(a);
        });
      if (session.hasCredentials()) goLive();
    }, fail);

  const slice: LiveSlice = {
    status,
    busy,
    streaming: computed(() =>
      live.value ? { id: live.value.id, text: live.value.answer, ended: !!live.value.ended } : null,
    ),
    error,
    notice,
    announcement,
    stop: () => {
      abort?.abort();
      void liveSync?.then((l) => l?.stop());
    },
  };
  return {
    slice,
    live,
    turn,
    goLive,
    /** The conversation is dropped: its turn stops and writes nothing more, its live channel closes. */
    drop(): void {
      endLive();
      abort?.abort();
      epoch++;
      live.value = null;
    },
    dispose(): void {
      endLive();
      abort?.abort();
    },
  };
}

export type LiveParts = ReturnType<typeof createLiveSlice>;
