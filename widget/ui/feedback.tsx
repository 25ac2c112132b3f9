import { useState } from "preact/hooks";
import type { Rating } from "../../shared/wire/protocol.ts";
import type { ReplyExtrasStrings } from "./reply-extras-strings.ts";
import { Stroked } from "./icons.tsx";

const ThumbIcon = () => (
  <Stroked>
    <path d="M7 10v11H4V10zM7 10l4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8a2 2 0 0 1-2 1.7H7" />
  </Stroked>
);

interface Props {
  strings: ReplyExtrasStrings;
  /** The visitor's rating so far, from the session. */
  given?: Rating;
  onRate: (rating: Rating, comment?: string) => Promise<void>;
}

/**
 * Thumbs up or down under a reply. A thumbs-down asks what went wrong (optional): that comment is
 * what the site's strategy desk learns from.
 */
export function Feedback({ strings, given, onRate }: Props) {
  const [asking, setAsking] = useState(false);
  const [comment, setComment] = useState("");
  const [sending, setSending] = useState(false);
  const send = (rating: Rating, text?: string) => {
    setSending(true);
    void onRate(rating, text?.trim() || undefined).finally(() => (setSending(false), setAsking(false)));
  };
  return (
    <>
      {(["up", "down"] as const).map((r) => (
        <button
          key={r}
          type="button"
          class="act"
          data-action={`thumbs-${r}`}
          aria-pressed={given === r}
          disabled={sending}
          aria-label={r === "up" ? strings.helpful : strings.notHelpful}
          title={r === "up" ? strings.helpful : strings.notHelpful}
          onClick={() => (r === "up" ? send("up") : setAsking(!asking))}
        >
          <ThumbIcon />
        </button>
      ))}
      {asking && (
        <form class="feedback-form" onSubmit={(e) => (e.preventDefault(), send("down", comment))}>
          <textarea
            class="input"
            maxLength={1000}
            aria-label={strings.feedbackAsk}
            placeholder={strings.feedbackAsk}
            value={comment}
            onInput={(e) => setComment(e.currentTarget.value)}
          />
          <button type="submit" class="send small" disabled={sending}>
            {strings.feedbackSend}
          </button>
        </form>
      )}
    </>
  );
}
