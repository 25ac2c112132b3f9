import type { ChatMessage } from "../../shared/chat/chat.ts";
import { photoPart } from "../../shared/chat/photo-ref.ts";
import type { StoredMessage } from "../../shared/session/session-events.ts";

/**
 * The stored conversation as the chat route wants it. A tool call with no stored result (a turn
 * stopped while tools ran) is dropped: OpenAI refuses an assistant tool call left unanswered.
 */
export function toChatHistory(messages: readonly StoredMessage[]): ChatMessage[] {
  const answered = new Set(messages.filter((m) => m.role === "tool").map((m) => m.toolCallId));
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === "user")
      out.push({
        id: m.id,
        role: "user",
        // Photos go as references the worker swaps for the stored bytes.
        content: m.photos?.length ? [{ type: "text", text: m.content }, ...m.photos.map(photoPart)] : m.content,
      });
    else if (m.role === "tool")
      out.push({ id: m.id, role: "tool", tool_call_id: m.toolCallId ?? "", content: m.content });
    else if (m.role === "assistant") {
      const calls = (m.toolCalls ?? []).filter((c) => answered.has(c.id));
      if (!m.content && !calls.length) continue;
      // A reply stopped midway and then retried: the model answers afresh, not after its fragment.
      if (m.status === "interrupted" && m === messages.at(-1)) continue;
      // A tool-call step's reasoning goes along: some providers require it back (the worker decides).
      const reasoning = calls.length && m.reasoning ? { reasoning_content: m.reasoning } : {};
      const content = m.content || null;
      out.push({ id: m.id, role: "assistant", content, ...(calls.length ? { tool_calls: calls } : {}), ...reasoning });
    }
  }
  return out;
}
