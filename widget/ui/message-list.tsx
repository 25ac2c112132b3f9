import { useLayoutEffect, useRef } from "preact/hooks";
import { localize } from "../../shared/agent-config.ts";
import type { ChatStore } from "../state/chat-store.ts";
import { MessageBubble } from "./message-bubble.tsx";
import { Reply } from "./reply.tsx";

export function MessageList({ store }: { store: ChatStore }) {
  const { strings: s, locale } = store;
  const agent = store.agent.value;
  const messages = store.messages.value;
  const items = store.transcript.value;
  const busy = store.busy.value;
  const status = store.status.value;
  const error = store.error.value;
  const notice = store.notice.value;
  const queued = store.queued.value;
  const feedback = store.feedback.value;
  // Waiting for the first word of a reply that has nothing to show yet.
  const waiting = busy && items.at(-1)?.kind !== "reply";
  const ref = useRef<HTMLDivElement>(null);

  // Follow the conversation, unless the visitor scrolled up to read.
  const stick = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  });

  const showStarters = agent && messages.length === 0 && !busy && !queued && agent.starters.length > 0;
  return (
    <div
      class="list"
      ref={ref}
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
      {agent && (
        <MessageBubble message={{ role: "assistant", content: localize(agent.greeting, locale) }} strings={s} />
      )}
      {!agent && status === "connecting" && <div class="status">{s.connecting}</div>}
      {items.map((item) =>
        item.kind === "user" ? (
          <MessageBubble key={item.id} message={{ role: "user", content: item.content }} strings={s} time={{ at: item.at, locale }} />
        ) : (
          <Reply
            key={item.id}
            reply={item}
            strings={s}
            locale={locale}
            busy={busy}
            onOption={(o) => void store.send(o)}
            onRetry={!error && item === items.at(-1) && messages.at(-1)?.status === "interrupted" ? store.retry : undefined}
            rating={feedback[item.parts.filter((p) => p.kind === "text").at(-1)?.id ?? ""]?.rating}
            onRate={store.rate}
          />
        ),
      )}
      {queued && (
        <div class="msg user pending" data-role="queued">
          <span class="sr">{s.you}: </span>
          <div class="bubble">{queued}</div>
          <div class="note" role="status">{s.queued}</div>
        </div>
      )}
      {waiting && (
        <div class="msg assistant" aria-label={s.thinking}>
          <div class="bubble typing">
            <i />
            <i />
            <i />
          </div>
        </div>
      )}
      {notice && <div class="status">{notice}</div>}
      {showStarters && (
        <div class="starters">
          {agent.starters.map((st, i) => {
            const text = localize(st, locale);
            return (
              <button key={i} type="button" class="chip" onClick={() => store.send(text)}>
                {text}
              </button>
            );
          })}
        </div>
      )}
      {error && (
        <div class="error" role="alert">
          <span>{error.text}</span>
          {/* Over budget, trying again now cannot help; the text says what can. */}
          {error.code !== "budget_exceeded" && (
            <button type="button" class="link-btn" onClick={store.retry}>
              {s.retry}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
