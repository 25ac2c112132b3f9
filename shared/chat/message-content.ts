import type { ChatMessage } from "./chat.ts";

/** A message's text: the string, or its text parts joined (image and other parts carry none). */
export function contentText(content: ChatMessage["content"] | undefined): string {
  if (content == null) return "";
  return typeof content === "string" ? content : content.map((p) => p.text ?? "").join("");
}
