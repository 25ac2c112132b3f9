import { useState } from "preact/hooks";
import type { Rating } from "../../shared/wire/protocol.ts";
import { copyText } from "./copy-text.ts";
import { Feedback } from "./feedback.tsx";
import { Stroked } from "./icons.tsx";
import CSS from "./reply-actions.css?inline";
import { addChunkCss } from "./chunk-css.ts";
import { useReplyExtrasStrings } from "./reply-extras-strings.ts";

addChunkCss(CSS);

const CopyIcon = () => (
  <Stroked>
    <rect x="9" y="9" width="12" height="12" rx="2" />
    <path d="M5 15V5a2 2 0 0 1 2-2h8" />
  </Stroked>
);

interface Props {
  locale: string;
  /** The reply's text as the visitor copies it. */
  text: string;
  /** The visitor's rating of the reply, and how to give one (absent: no rating offered). */
  rating?: Rating;
  onRate?: (rating: Rating, comment?: string) => Promise<void>;
}

/**
 * What a visitor can do with a finished reply: copy it, rate it. A chunk of its own (a lean first load): no one
 * needs it before a reply has finished, and it starts loading while the first one streams (reply.tsx).
 */
export function ReplyActions({ locale, text, rating, onRate }: Props) {
  const strings = useReplyExtrasStrings(locale);
  const [copied, setCopied] = useState(false);
  if (!strings) return null;
  return (
    <>
      <button
        type="button"
        class="act"
        data-action="copy"
        aria-label={copied ? strings.copied : strings.copy}
        title={strings.copy}
        onClick={() =>
          void copyText(text).then((ok) => ok && (setCopied(true), setTimeout(() => setCopied(false), 2000)))
        }
      >
        <CopyIcon />
        {copied && <span>{strings.copied}</span>}
      </button>
      {onRate && <Feedback strings={strings} given={rating} onRate={onRate} />}
    </>
  );
}
