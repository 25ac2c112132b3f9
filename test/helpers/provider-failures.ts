/**
 * A provider's error answers as real ones read, each quoting something of the owner's account: what
 * the provider fake answers on `/fail/<status>/…` (upstream-setup.ts), and what a test looks for.
 * `said` is the provider's own words, for the owner's trace only; `secret` is key-like, for nobody.
 */
export interface ProviderFailureCase {
  status: 401 | 403 | 429 | 500;
  message: string;
  said: string;
  secret?: string;
}

export const FAILURES: ProviderFailureCase[] = [
  {
    // OpenAI's answer to a wrong key, masked as OpenAI masks it.
    status: 401,
    message:
      "Incorrect API key provided: sk-proj-AbCd****WxYz. You can find your API key at " +
      "https://platform.openai.com/account/api-keys.",
    said: "Incorrect API key provided",
    secret: "sk-proj-AbCd****WxYz",
  },
  {
    status: 403,
    message:
      "Project proj_PROBE42 does not have access to model gpt-4o-mini (key sk-ant-api03-Zx9Yw8Vu7Ts6Rq5 disabled)",
    said: "does not have access to model",
    secret: "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5",
  },
  {
    status: 429,
    message:
      "Rate limit reached for gpt-4o-mini in organization org-PROBEORG123 on tokens per min (TPM): " +
      "Limit 200000, Used 199500, Requested 1200.",
    said: "in organization org-PROBEORG123",
  },
  {
    status: 500,
    message: "upstream connect error to https://gw.internal.example/v1?api_key=AIzaSyD-1234567890abcdefghijklmnopqrstu",
    said: "upstream connect error",
    secret: "AIzaSyD-1234567890abcdefghijklmnopqrstu",
  },
];

/**
 * The fake's answer on `/fail/<status>/…`, in OpenAI's error shape; `/fail/echo/…` is a 401 that quotes
 * back the key it got, as some gateways and local servers do.
 */
export function failureBody(which: number | "echo", authorization?: string | string[]): string | undefined {
  const message =
    which === "echo"
      ? `Invalid credentials: ${String(authorization).replace(/^Bearer\s+/i, "")}`
      : FAILURES.find((f) => f.status === which)?.message;
  return message && JSON.stringify({ error: { message, type: "invalid_request_error", param: null, code: null } });
}
