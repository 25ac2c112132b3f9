import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../worker/llm/redact-secrets.ts";

describe("redactSecrets: a provider's error text as the owner's trace keeps it", () => {
  it("removes key-like strings, whole or masked, and keeps the words around them", () => {
    const cases: Array<[string, string]> = [
      ["Incorrect API key provided: sk-proj-AbCd****WxYz.", "Incorrect API key provided: [redacted]."],
      ["invalid x-api-key sk-ant-api03-Zx9Yw8Vu7Ts6Rq5", "invalid x-api-key [redacted]"],
      ["API key not valid: AIzaSyD-1234567890abcdefghijklmnopqrstu", "API key not valid: [redacted]"],
      ["got Authorization: Bearer abc.def.ghi-123", "got Authorization: Bearer [redacted]"],
      ["token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwcm9iZSJ9.c2lnbmF0dXJl expired", "token [redacted] expired"],
      ["GET /v1?api_key=hunter2hunter2&x=1", "GET /v1?api_key=[redacted]&x=1"],
      ["subscription key 0123456789abcdef0123456789abcdef is invalid", "subscription key [redacted] is invalid"],
    ];
    for (const [text, redacted] of cases) expect(redactSecrets(text), text).toBe(redacted);
  });

  it("removes the exact key the request sent, whatever its shape", () => {
    expect(redactSecrets("bad credentials: my.odd.key-01", ["my.odd.key-01"])).toBe("bad credentials: [redacted]");
  });

  it("leaves what the owner needs to act on: organisation, model, limits, a documentation link", () => {
    const text =
      "Rate limit reached for gpt-4o-mini-2024-07-18 in organization org-PROBEORG123 on tokens per min (TPM): " +
      "Limit 200000, Used 199500. See https://platform.openai.com/account/rate-limits.";
    expect(redactSecrets(text)).toBe(text);
  });
});
