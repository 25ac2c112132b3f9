import { retryAfterMs as readRetryAfter } from "../../shared/retry-after.ts";
import { ApiError } from "../errors.ts";

/** Statuses worth another try, here or at the next model: overload, rate limit, server trouble. */
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504, 529]);

export interface ProviderFailure {
  error: ApiError;
  retryable: boolean;
  retryAfterMs?: number;
}

/**
 * A provider's error answer as the owner's trace and the visitor's message need it. The body's
 * message is found whatever the provider's shape: OpenAI-style `{ error: { message } }` (OpenAI,
 * Azure, DeepSeek, Moonshot, Zhipu, OpenRouter, Ollama, llama.cpp), `{ error: "…" }`, a list of
 * those (Gemini's OpenAI compatibility), or a flat `{ message }` (vLLM, DashScope's native API).
 * A rate limit is `upstream_busy` with the provider's Retry-After, a refused key `misconfigured`.
 */
export function providerFailure(
  provider: string,
  status: number,
  text: string,
  retryAfter: string | null,
): ProviderFailure {
  const detail = providerMessage(text) || "no message";
  const retryAfterMs = readRetryAfter(retryAfter);
  const retryable = RETRYABLE_STATUS.has(status);
  if (status === 429) {
    const secs = retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(retryAfterMs / 1000));
    const headers: Record<string, string> = secs === undefined ? {} : { "retry-after": String(Math.min(secs, 3600)) };
    const error = new ApiError(
      503,
      "upstream_busy",
      `Provider ${provider} answered 429 (rate limited): ${detail}`,
      { status },
      headers,
    );
    return { error, retryable, retryAfterMs };
  }
  if (status === 401 || status === 403) {
    return {
      error: new ApiError(502, "misconfigured", `Provider ${provider} refused the key (${status}): ${detail}`, {
        status,
      }),
      retryable: false,
    };
  }
  return {
    error: new ApiError(502, "upstream_error", `Provider ${provider} answered ${status}: ${detail}`, { status }),
    retryable,
    retryAfterMs,
  };
}

export function providerMessage(text: string): string {
  try {
    let parsed = JSON.parse(text) as unknown;
    if (Array.isArray(parsed)) parsed = parsed[0];
    const o = parsed as { error?: { message?: unknown } | string; message?: unknown };
    const msg = typeof o?.error === "string" ? o.error : (o?.error?.message ?? o?.message);
    if (msg) return String(msg).slice(0, 500);
  } catch {
    /* not JSON: the text itself */
  }
  return text.slice(0, 200);
}
