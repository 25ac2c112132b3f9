import type { ComponentChildren } from "preact";
import type { ViewMessage } from "../state/chat-store.ts";
import type { Strings } from "../i18n/index.ts";
import { MessageTime } from "./message-time.tsx";
import { LazyMarkdown } from "./lazy-markdown.tsx";

interface Props {
  message: Pick<ViewMessage, "role" | "content" | "status">;
  strings: Strings;
  streaming?: boolean;
  /** When it was sent, with the visitor's locale: shown under the bubble. */
  time?: { at: number; locale: string };
  /** Shown in the bubble after the text (the visitor's photos). */
  children?: ComponentChildren;
}

/** Visitor text is shown as typed; assistant text is markdown. */
export function MessageBubble({ message, strings, streaming, time, children }: Props) {
  const { role } = message;
  return (
    <div class={`msg ${role}`} data-role={role} data-streaming={streaming ? "true" : undefined}>
      <span class="sr">{role === "user" ? strings.you : strings.assistant}: </span>
      <div class={`bubble${streaming ? " caret" : ""}`}>
        {role === "user" ? message.content : <LazyMarkdown text={message.content} done={!streaming} />}
        {children}
      </div>
      {message.status === "interrupted" && <div class="note">{strings.stopped}</div>}
      {time && <MessageTime {...time} />}
    </div>
  );
}
