import { signal, type ReadonlySignal } from "@preact/signals";
import { messageEvent } from "../../shared/session/events.ts";
import { newId } from "../agent/ids.ts";
import { defaultSessionStorage, loadText, saveText, sessionKey } from "./browser-storage.ts";
import type { LiveParts } from "./live-slice.ts";
import type { StoreBase } from "./store-base.ts";
import type { StoredMessage } from "../../shared/session/session-events.ts";

/** What the visitor writes and sends; nothing typed is lost while the network is away. */
export interface ComposerSlice {
  /** The composer's text, kept across closing the panel and reloads. */
  draft: ReadonlySignal<string>;
  setDraft(text: string): void;
  /** The browser's online state; offline, the panel says so and messages wait. */
  online: ReadonlySignal<boolean>;
  /** A message sent while offline, waiting to go. */
  queued: ReadonlySignal<string | null>;
  /** The visitor's message, with the ids of photos already uploaded to the session (photo kit). */
  send(text: string, photos?: string[]): Promise<void>;
  /**
   * Asks again for a reply to the last visitor message (ids are reused, so the worker stores nothing
   * twice), also after a reply that was stopped midway (the model does not see the fragment).
   */
  retry(): Promise<void>;
}

/**
 * The composer, and the network: nothing typed is lost. The draft is kept (sessionStorage, so a reload
 * keeps it too); a message sent while offline waits here and goes when the browser is back online, and
 * a turn the network failed is asked again then.
 */
export function createComposerSlice(base: StoreBase, live: LiveParts) {
  const { opts, session, status, error, consent, host, ready, connect } = base;
  const { busy } = live.slice;
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

  function setQueued(text: string | null): void {
    queued.value = text;
    saveText(drafts, queueKey, text ?? "");
  }

  /** The message waits for the network, after any other that already waits. */
  const hold = (text: string) => setQueued(queued.value ? `${queued.value}\n\n${text}` : text);

  /** What waited, now to be sent (it is no longer kept). */
  function take(): string | null {
    const text = queued.value;
    if (text) setQueued(null);
    return text;
  }

  /** Sends the message that waited for the network (it waits again if the network is still down). */
  async function flushQueued(): Promise<void> {
    if (!queued.value || busy.value) return;
    await send(take()!);
  }

  async function send(raw: string, photos: string[] = []): Promise<void> {
    const text = raw.trim();
    if ((!text && !photos.length) || busy.value) return;
    // Offline, or the session cannot be opened for the network: the message waits, nothing is lost.
    if (!online.value) return hold(text);
    if (!(await ready())) {
      // It waits for the network, or for the visitor's consent (sent once they agreed: retry()).
      if (consent.value || error.value?.code === "network" || error.value?.code === "timeout") hold(text);
      return;
    }
    const message: StoredMessage = { id: newId(), role: "user", content: text, at: Date.now() };
    if (photos.length) message.photos = photos;
    session.apply([messageEvent(message)]);
    host.sent(message);
    await live.turn();
  }

  async function retry(): Promise<void> {
    // The last stored message: a visitor's, a cut reply, or (a turn that failed between steps) a
    // tool step or a tool's result; a finished reply has nothing to retry.
    const last = session.state.value.messages.at(-1);
    if (busy.value) return;
    if (queued.value) return flushQueued();
    if (!last || (last.role == "assistant" && last.status != "interrupted" && !last.toolCalls)) return connect();
    if (await ready()) await live.turn();
  }

  // Back online: what waited goes, or the turn the network failed is asked again.
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

  const slice: ComposerSlice = { draft, setDraft, online, queued, send, retry };
  return {
    slice,
    flushQueued,
    /** A new conversation: what waited goes back into the composer, not into the new conversation. */
    returnToDraft(): void {
      const text = take();
      if (text) setDraft(draft.value ? `${draft.value}\n\n${text}` : text);
    },
    dispose(): void {
      win?.removeEventListener("online", onOnline);
      win?.removeEventListener("offline", onOffline);
    },
  };
}

export type ComposerParts = ReturnType<typeof createComposerSlice>;
