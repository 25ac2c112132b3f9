import { retryAfterMs as readRetryAfter } from "../../shared/wire/retry-after.ts";
import type { ErrorCode } from "../../shared/wire/errors.ts";
import type { LocalizedText } from "../../shared/config/localized-text.ts";
import { ProviderError } from "../errors.ts";
import { redactSecrets } from "./redact-secrets.ts";

/** Statuses worth another try, here or at the next model: overload, rate limit, server trouble. */
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504, 529]);

export interface ProviderFailure {
  error: ProviderError;
  retryable: boolean;
  retryAfterMs?: number;
}

const UNAVAILABLE: LocalizedText = {
  en: "The assistant is unavailable right now. Please try again in a minute.",
  "zh-CN": "助手暂时无法使用，请一分钟后再试。",
};

/**
 * What a visitor reads when the provider fails, by code: the words the widget shows for the code
 * (widget/i18n; a test keeps the two the same), for clients that show the message. Nothing of the
 * provider's own text.
 */
export const VISITOR_TEXT = {
  upstream_busy: { en: "The assistant is busy right now.", "zh-CN": "助手现在有点忙。" },
  upstream_timeout: {
    en: "The server took too long to answer. Please try again.",
    "zh-CN": "服务器响应超时，请重试。",
  },
  upstream_error: UNAVAILABLE,
  upstream_unreachable: UNAVAILABLE,
  misconfigured: UNAVAILABLE,
} satisfies Partial<Record<ErrorCode, LocalizedText>>;
export type ProviderErrorCode = keyof typeof VISITOR_TEXT;

/**
 * A failure on the way to the provider or in its answer: the visitor gets the code's generic text,
 * the owner's trace `ownerText` with anything key-like removed (`secrets`: the key the request sent).
 */
export function providerError(
  status: 502 | 503 | 504,
  code: ProviderErrorCode,
  ownerText: string,
  opts: { secrets?: ReadonlyArray<string | undefined>; providerStatus?: number; headers?: Record<string, string> } = {},
): ProviderError {
  const extra = opts.providerStatus === undefined ? {} : { status: opts.providerStatus };
  const owner = redactSecrets(ownerText, opts.secrets);
  return new ProviderError(status, code, VISITOR_TEXT[code], owner, extra, opts.headers);
}

/**
 * A provider's error answer as the owner's trace and the visitor's message need it. The body's
 * message is found whatever the provider's shape: OpenAI-style `{ error: { message } }` (OpenAI,
 * Azure, DeepSeek, Moonshot, Zhipu, OpenRouter, Ollama, llama.cpp), `{ error: "…" }`, a list of
 * those (Gemini's OpenAI compatibility), or a flat `{ message }` (vLLM, DashScope's native API).
 * A rate limit is `upstream_busy` with the provider's Retry-After, a refused key `misconfigured`.
 * The provider's words (which may quote the key or the account) are the owner's only.
 */
export function providerFailure(
  provider: string,
  status: number,
  text: string,
  retryAfter: string | null,
  secrets: ReadonlyArray<string | undefined> = [],
): ProviderFailure {
  const detail = providerMessage(text) || "no message";
  const retryAfterMs = readRetryAfter(retryAfter);
  const retryable = RETRYABLE_STATUS.has(status);
  const opts = { secrets, providerStatus: status };
  if (status === 429) {
    const secs = retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(retryAfterMs / 1000));
    const headers: Record<string, string> = secs === undefined ? {} : { "retry-after": String(Math.min(secs, 3600)) };
    const owner = `Provider ${provider} answered 429 (rate limited): ${detail}`;
    return { error: providerError(503, "upstream_busy", owner, { ...opts, headers }), retryable, retryAfterMs };
  }
  if (status === 401 || status === 403) {
    const owner = `Provider ${provider} refused the key (${status}): ${detail}`;
    return { error: providerError(502, "misconfigured", owner, opts), retryable: false };
  }
  const owner = `Provider ${provider} answered ${status}: ${detail}`;
  return { error: providerError(502, "upstream_error", owner, opts), retryable, retryAfterMs };
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
