import { signal } from "@preact/signals";
import { defaultSessionStorage, loadText, saveText, type KeyValueStore } from "./browser-storage.ts";

/**
 * The network (issue 5.3): nothing typed is lost. The composer's draft is kept (sessionStorage, so
 * a reload keeps it too); a message sent while offline waits here and goes when the browser is back
 * online. `onOnline` is the chat's: it sends what waited, or retries a turn the network failed.
 */
export function createOutbox(opts: {
  storage: KeyValueStore | null | undefined;
  keyBase: string;
  onOnline: () => void;
}) {
  const drafts = opts.storage === undefined ? defaultSessionStorage() : opts.storage;
  const draftKey = `${opts.keyBase}:draft`;
  const queueKey = `${opts.keyBase}:outbox`;
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

  function take(): string | null {
    const text = queued.value;
    if (text) setQueued(null);
    return text;
  }

  const onOnline = () => {
    online.value = true;
    opts.onOnline();
  };
  const onOffline = () => void (online.value = false);
  const win = typeof window === "undefined" ? null : window;
  win?.addEventListener("online", onOnline);
  win?.addEventListener("offline", onOffline);

  return {
    online,
    draft,
    queued,
    setDraft,
    /** The message waits for the network, after any other that already waits. */
    hold: (text: string) => setQueued(queued.value ? `${queued.value}\n\n${text}` : text),
    /** What waited, now to be sent (it is no longer kept). */
    take,
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

export type Outbox = ReturnType<typeof createOutbox>;
