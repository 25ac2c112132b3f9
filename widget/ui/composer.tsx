import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { ChatStore } from "../state/chat-store.ts";
import type { PendingPhoto } from "../photos/pending.ts";
import { SendIcon, StopIcon } from "./icons.tsx";
import { LazyPhotoAttach } from "./photo-slots.tsx";

export function Composer({ store }: { store: ChatStore }) {
  const { strings: s } = store;
  // The draft lives in the store: it survives closing the panel, a reload, and the network dropping.
  const text = store.draft.value;
  const setText = store.setDraft;
  const ref = useRef<HTMLTextAreaElement>(null);
  const busy = store.busy.value;
  // Photos attached to the message being written (agents that take photos; the kit fills this).
  const photos = useSignal<PendingPhoto[]>([]);
  const ids = photos.value.flatMap((p) => (p.id ? [p.id] : []));
  const uploading = photos.value.some((p) => !p.id && !p.error);
  const empty = !text.trim() && !ids.length;

  useEffect(() => ref.current?.focus(), []);

  // Grow with the text up to max-height (CSS), then scroll.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight + 2}px`;
  }, [text]);

  // Offline, sending still works: the message waits and goes when the browser is back online.
  const submit = () => {
    if (busy || uploading || empty) return;
    void store.send(text, ids);
    setText("");
    photos.value = [];
  };

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {store.agent.value?.photos && <LazyPhotoAttach store={store} photos={photos} />}
      <textarea
        ref={ref}
        class="input"
        rows={1}
        value={text}
        placeholder={s.placeholder}
        aria-label={s.placeholder}
        maxLength={16000}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Enter sends; Shift+Enter is a newline; Enter that confirms an IME composition (Chinese input) is neither.
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
            e.preventDefault();
            submit();
          }
        }}
      />
      {busy ? (
        <button type="button" class="send stop" onClick={store.stop} aria-label={s.stop} title={s.stop}>
          <StopIcon />
        </button>
      ) : (
        <button type="submit" class="send" disabled={uploading || empty} aria-label={s.send} title={s.send}>
          <SendIcon />
        </button>
      )}
    </form>
  );
}
