import { batch, signal, type Signal } from "@preact/signals";
import type { PublicAgent } from "../../shared/agent-config.ts";
import { messageEvent } from "../../shared/events.ts";
import type { Advice, StoredMessage } from "../../shared/session.ts";
import type { StepView } from "../agent/loop.ts";
import type { Strings } from "../i18n/index.ts";
import { isAbortError, isHttpError } from "../transport/errors.ts";
import type { FetchLike } from "../transport/http.ts";
import { runAgentTurn } from "./agent-turn.ts";
import type { SessionStore } from "./session-store.ts";

export type ChatStatus = "idle" | "connecting" | "sending" | "streaming" | "error";

export interface TurnRunnerOptions {
  api: string;
  fetch?: FetchLike;
  toolTimeoutMs?: number;
  session: SessionStore;
  strings: Strings;
  status: Signal<ChatStatus>;
  /** A note under the conversation that is not a message, e.g. the step limit was reached. */
  notice: Signal<string>;
  /** A failed turn: `message` replaces the error's own text (a reply cut after it began). */
  fail: (e: unknown, message?: string) => void;
  /** A turn's outcome: the replies it added (the last one is announced) and the advice it recorded. */
  done: (replies: StoredMessage[], advice: Advice[]) => void;
}

/**
 * Runs the agent's turns: one at a time, abortable, each shown live while it streams. A turn of a
 * conversation that was dropped meanwhile (clear) writes nothing into the new one.
 */
export function createTurnRunner(opts: TurnRunnerOptions) {
  const { session, status } = opts;
  const live = signal<StepView | null>(null);
  let abort: AbortController | null = null;
  /** Bumped by drop(): a turn of the dropped conversation must not write into the new one. */
  let epoch = 0;

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

  /** Runs the turn for the conversation as it stands (the last message is the visitor's). */
  async function turn(agent: PublicAgent, resumeId?: string): Promise<void> {
    const ctrl = (abort = new AbortController());
    const mine = epoch;
    const before = session.state.value.messages.length;
    const adviceBefore = session.state.value.advice?.length ?? 0;
    batch(() => {
      status.value = "sending";
      opts.notice.value = "";
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
        if (result.end === "step_limit") opts.notice.value = opts.strings.stepLimit;
      });
      const { messages, advice } = session.state.value;
      opts.done(
        messages.slice(before).filter((m) => m.role === "assistant" && m.content),
        advice?.slice(adviceBefore) ?? [],
      );
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
        opts.fail(e, opts.strings.errCut);
      } else opts.fail(e);
    } finally {
      if (abort === ctrl) abort = null;
    }
  }

  return {
    live,
    turn,
    /** Stops the stream and any running tools; the text so far stays, marked as interrupted. */
    stop: () => abort?.abort(),
    /** The conversation is dropped: the running turn stops and writes nothing more. */
    drop(): void {
      abort?.abort();
      epoch++;
      live.value = null;
    },
  };
}
