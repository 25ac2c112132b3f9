import type { VNode } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { localize } from "../../shared/config/localize.ts";
import type { ChatStore } from "../state/chat-store.ts";
import type { TranscriptItem } from "../state/transcript.ts";
import { lazyComponent } from "./lazy.tsx";
import { MessageBubble } from "./message-bubble.tsx";
import { LazyPhotoThumbs } from "./photo-slots.tsx";
import { preloadReplyExtras, Reply } from "./reply.tsx";
import { sameItem } from "./same-item.ts";
import { useFrameValue } from "./use-frame-value.ts";

// A person from the site's staff (takeover): their messages and joining, drawn by takeover's chunk.
const LazyPersonLine = lazyComponent(() => import("./takeover.tsx").then((m) => m.PersonLine));

interface Drawn {
  item: TranscriptItem;
  deps: unknown[];
  vnode: VNode;
}

/**
 * Keeps the vnode drawn for each item while the item and what else it shows (deps) stay the same.
 * The list re-renders on every chunk of a streaming reply; a kept component vnode makes Preact skip
 * that message entirely, so a chunk costs the reply under way, not the conversation above it.
 */
function useKept() {
  const kept = useRef(new Map<string, Drawn>());
  const next = new Map<string, Drawn>();
  const keep = (item: TranscriptItem, deps: unknown[], draw: () => VNode): VNode => {
    const was = kept.current.get(item.id);
    const same = was && sameItem(was.item, item) && was.deps.every((d, i) => d === deps[i]);
    const drawn = same ? was : { item, deps, vnode: draw() };
    next.set(item.id, drawn);
    return drawn.vnode;
  };
  return { keep, done: () => void (kept.current = next) };
}

export function MessageList({ store }: { store: ChatStore }) {
  const { strings: s, locale } = store;
  const agent = store.agent.value;
  const disclaimer = agent?.disclaimer && localize(agent.disclaimer, locale);
  const messages = store.messages.value;
  const items = useFrameValue(
    store.transcriptChanges,
    () => store.transcript.peek(),
    // Throttled while a reply streams; its complete text (the finish reason came) is drawn at once.
    () => store.streaming.peek()?.ended === false,
  );
  const busy = store.busy.value;
  const status = store.status.value;
  const error = store.error.value;
  const notice = store.notice.value;
  const queued = store.queued.value;
  const feedback = store.feedback.value;
  // Waiting for the first word of a reply that has nothing to show yet.
  const waiting = busy && items.at(-1)?.kind !== "reply";
  // What a reply shows besides its text (reply-extras.ts) loads while the first one is asked for.
  if (busy) void preloadReplyExtras().catch(() => {});
  const ref = useRef<HTMLDivElement>(null);

  // Follow the conversation, unless the visitor scrolled up to read. Right after each drawing, in the
  // same frame: a streaming reply is drawn at most every 50 ms, inside an animation frame, so reading
  // scrollHeight lays the list out once, as that frame must anyway, and the frame paints the new text in
  // view (scrolled a frame later, it would be painted out of view first, at the cost of a second frame).
  // The scroll event for our own scroll arrives a frame later, when the reply may have grown by more
  // than a line: only a scroll back above where we put it (the visitor's) lets go.
  const stick = useRef(true);
  const placed = useRef(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !stick.current) return;
    el.scrollTop = el.scrollHeight;
    placed.current = el.scrollTop;
  });

  const { keep, done } = useKept();
  useLayoutEffect(done);

  const showStarters = agent && messages.length === 0 && !busy && !queued && agent.starters.length > 0;
  return (
    <div
      class="list"
      ref={ref}
      onScroll={(e) => {
        const el = e.currentTarget;
        const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        stick.current = atBottom || (stick.current && el.scrollTop >= placed.current - 2);
      }}
    >
      {agent && (
        <MessageBubble message={{ role: "assistant", content: localize(agent.greeting, locale) }} strings={s} />
      )}
      {!agent && status === "connecting" && <div class="status">{s.connecting}</div>}
      {items.map((item) => {
        if (item.kind === "user") {
          return keep(item, [s, locale], () => (
            <MessageBubble
              key={item.id}
              message={{ role: "user", content: item.content }}
              strings={s}
              time={{ at: item.at, locale }}
            >
              {item.photos && <LazyPhotoThumbs ids={item.photos} />}
            </MessageBubble>
          ));
        }
        if (item.kind === "person")
          return keep(item, [s, locale], () => <LazyPersonLine key={item.id} item={item} store={store} />);
        const stopped = !error && item === items.at(-1) && messages.at(-1)?.status === "interrupted";
        const onRetry = stopped ? store.retry : undefined;
        const rating = feedback[item.parts.filter((p) => p.kind === "text").at(-1)?.id ?? ""]?.rating;
        // `busy` only changes what a reply with follow-up chips or a retry button shows; every other reply
        // stays kept when a turn starts and ends (redrawing them all cost each turn the conversation's length).
        const usesBusy = onRetry || item.parts.some((p) => p.kind === "followup");
        return keep(item, [s, locale, usesBusy && busy, onRetry, rating], () => (
          <Reply
            key={item.id}
            reply={item}
            strings={s}
            disclaimer={disclaimer}
            locale={locale}
            busy={busy}
            onOption={(o) => void store.send(o)}
            onRetry={onRetry}
            rating={rating}
            onRate={store.rate}
          />
        ));
      })}
      {queued && (
        <div class="msg user pending" data-role="queued">
          <span class="sr">{s.you}: </span>
          <div class="bubble">{queued}</div>
          <div class="note" role="status">
            {s.queued}
          </div>
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
