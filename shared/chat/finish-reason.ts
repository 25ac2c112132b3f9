/** The finish reasons Parley acts on; providers' own spellings map onto these. */
export const FINISH_REASONS = ["stop", "length", "tool_calls", "content_filter", "error"] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];

const SPELLINGS: Record<string, FinishReason> = {
  stop: "stop",
  eos: "stop",
  end_turn: "stop",
  stop_sequence: "stop",
  length: "length",
  max_tokens: "length",
  model_length: "length",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  tool_use: "tool_calls",
  content_filter: "content_filter",
  // Zhipu GLM: the reply was blocked by its safety review.
  sensitive: "content_filter",
  safety: "content_filter",
  recitation: "content_filter",
  // Zhipu GLM's `network_error`, OpenRouter's `error`, DeepSeek's out-of-capacity reason: cut short.
  network_error: "error",
  error: "error",
  insufficient_system_resource: "error",
};

/**
 * One spelling per reason. A reply that carries tool calls but says `stop` (Gemini's OpenAI
 * compatibility when streaming, googleapis/python-genai#2868; older Ollama) is a tool-call step.
 */
export function normalizeFinishReason(raw: string | null, hasToolCalls: boolean): FinishReason | null {
  if (raw === null) return null;
  const reason = SPELLINGS[raw.toLowerCase()] ?? "stop";
  return reason === "stop" && hasToolCalls ? "tool_calls" : reason;
}
