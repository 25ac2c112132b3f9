import { createParser } from "eventsource-parser";
import type { ProviderStream } from "../llm/model-reply.ts";

/** What a reply's first step starts with: its answer's text, or something else (a tool call, reasoning). */
export type StepStart = "text" | "other";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const said = (v: unknown) => typeof v === "string" && v.length > 0;

/** What one event says of the step's start, or null when it says nothing yet (the role, an empty delta). */
function startOf(data: string): StepStart | null {
  if (data === "[DONE]") return "text";
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isObject(chunk)) return null;
  if (chunk.error !== undefined) return "text";
  const choice = Array.isArray(chunk.choices) && isObject(chunk.choices[0]) ? chunk.choices[0] : null;
  const delta = choice && isObject(choice.delta) ? choice.delta : null;
  if (delta && Array.isArray(delta.tool_calls) && delta.tool_calls.length) return "other";
  if (delta && (said(delta.reasoning_content) || said(delta.reasoning))) return "other";
  if (delta && said(delta.content)) return "text";
  return choice?.finish_reason ? "text" : null;
}

/**
 * Reads a streamed reply's first chunks until they show how it starts, and gives the stream back
 * whole: the chunks read as its first bytes, the rest still the provider's own body (so the
 * runtime can pipe it, with no JavaScript per chunk). Most replies show it in their first or
 * second chunk; a stream that ends or breaks first counts as text.
 */
export async function stepStart(stream: ProviderStream): Promise<{ start: StepStart; stream: ProviderStream }> {
  const seen: Uint8Array[] = stream.first ? [stream.first] : [];
  let start: StepStart | null = null;
  const parser = createParser({ onEvent: (e) => void (start ??= startOf(e.data)) });
  const decoder = new TextDecoder();
  if (stream.first) parser.feed(decoder.decode(stream.first, { stream: true }));
  const reader = stream.rest.getReader();
  try {
    while (!start) {
      const next = await reader.read();
      if (next.done) break;
      seen.push(next.value);
      parser.feed(decoder.decode(next.value, { stream: true }));
    }
  } catch {
    /* the provider broke off: what came is passed on, the break with the rest */
  }
  reader.releaseLock();
  const length = seen.reduce((n, b) => n + b.length, 0);
  const first = new Uint8Array(length);
  seen.reduce((at, b) => (first.set(b, at), at + b.length), 0);
  return { start: start ?? "text", stream: { ...stream, first: length ? first : null } };
}
