import type { Rating } from "../../shared/wire/protocol.ts";
import type { Strings } from "../i18n/index.ts";
import type { ReplyItem } from "../state/transcript.ts";
import { lazyComponent } from "./lazy.tsx";
import { LazyMarkdown } from "./lazy-markdown.tsx";
import { MessageTime } from "./message-time.tsx";

/** Copy and rating, the model's working, advice cards: a chunk that loads as the first message is sent. */
const LazyReplyActions = lazyComponent(() => import("./reply-extras.ts").then((m) => m.ReplyActions));
const LazyReasoning = lazyComponent(() => import("./reply-extras.ts").then((m) => m.Reasoning));
export const preloadReplyExtras = LazyReplyActions.preload;
const LazyAdviceCard = lazyComponent(() => import("./reply-extras.ts").then((m) => m.AdviceCard));

interface Props {
  locale: string;
  reply: ReplyItem;
  strings: Strings;
  /** Answering a follow-up question sends the chosen option as the visitor's message. */
  onOption: (text: string) => void;
  busy: boolean;
  /** Given for the last reply when it was stopped midway: asks for it again. */
  onRetry?: () => void;
  /** The visitor's rating of this reply, and how to give one (finished replies only). */
  rating?: Rating;
  onRate?: (messageId: string, rating: Rating, comment?: string) => Promise<void>;
  /** The site's disclaimer for an agent with the advice guard: on every advice card. */
  disclaimer?: string;
}

/** The assistant's answer to one visitor message: text, advice cards and questions, in the order given. */
export function Reply({ reply, strings, onOption, busy, onRetry, locale, rating, onRate, disclaimer }: Props) {
  const text = reply.parts
    .map((p) => (p.kind === "text" ? p.content : ""))
    .filter(Boolean)
    .join("\n\n");
  // A rating belongs to the reply's final answer: its last text message.
  const answerId = reply.parts.filter((p) => p.kind === "text").at(-1)?.id;
  return (
    <div class="msg assistant" data-role="assistant" data-reply-id={reply.id}>
      <span class="sr">{strings.assistant}: </span>
      {reply.parts.map((part) => {
        if (part.kind === "advice")
          return <LazyAdviceCard key={part.advice.id} advice={part.advice} locale={locale} disclaimer={disclaimer} />;
        if (part.kind === "followup") {
          return (
            <div key={part.id} class="bubble followup">
              <p>{part.question}</p>
              {part.options.length > 0 && (
                <div class="starters">
                  {part.options.map((o) => (
                    <button key={o} type="button" class="chip" disabled={busy} onClick={() => onOption(o)}>
                      {o}
                    </button>
                  ))}
                </div>
              )}
            </div>
          );
        }
        if (!part.content && part.streaming) {
          return (
            <div key={part.id} class="bubble typing" aria-label={strings.thinking}>
              <i />
              <i />
              <i />
            </div>
          );
        }
        return (
          <div key={part.id} class="part" data-streaming={part.streaming ? "true" : undefined}>
            <div class={`bubble${part.streaming ? " caret" : ""}`}>
              <LazyMarkdown text={part.content} done={!part.streaming} />
            </div>
            {part.status === "interrupted" && (
              <div class="note">
                {strings.stopped}
                {onRetry && !busy && (
                  <button type="button" class="link-btn" onClick={onRetry}>
                    {strings.retry}
                  </button>
                )}
              </div>
            )}
          </div>
        );
      })}
      <LazyReasoning steps={reply.reasoning} locale={locale} live={reply.live} />
      {!reply.live && (reply.at !== undefined || text) && (
        <div class="meta">
          {reply.at !== undefined && <MessageTime at={reply.at} locale={locale} />}
          {text && (
            <LazyReplyActions
              locale={locale}
              text={text}
              rating={rating}
              onRate={answerId && onRate ? (r, comment) => onRate(answerId, r, comment) : undefined}
            />
          )}
        </div>
      )}
    </div>
  );
}
