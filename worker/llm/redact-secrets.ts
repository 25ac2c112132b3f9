/** What a redacted secret is replaced by. */
export const REDACTED = "[redacted]";

/**
 * Shapes of credentials a provider's error text may quote, whole or masked (OpenAI answers a bad key
 * with `Incorrect API key provided: sk-proj-AbCd****WxYz`): OpenAI/Anthropic/OpenRouter/DeepSeek style
 * `sk-` keys, Google `AIza` keys, JWTs, an echoed `Authorization` header, `key=…` pairs, and long runs
 * of hex or base64 (Azure's 32-hex keys, most other vendors' tokens).
 */
const RULES: Array<[RegExp, string]> = [
  [/\bsk-[A-Za-z0-9_*-]{4,}/g, REDACTED],
  [/\bAIza[0-9A-Za-z_*-]{10,}/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.?[A-Za-z0-9_-]*/g, REDACTED],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=*-]{6,}/gi, `$1 ${REDACTED}`],
  [/\b((?:api[_-]?)?key|token|secret|password)(\s*[=:]\s*["']?)[^\s"',;&]{6,}/gi, `$1$2${REDACTED}`],
  [/\b[a-f0-9]{32,}\b/gi, REDACTED],
  [/[A-Za-z0-9+/_-]{40,}={0,2}/g, REDACTED],
];

/**
 * A provider's text with anything key-like replaced, for the owner's trace: the owner's own key must
 * not sit in a conversation log that staff, exports and backups read. `known` are the exact secrets
 * the request used (the key it sent), removed whatever their shape.
 */
export function redactSecrets(text: string, known: ReadonlyArray<string | undefined> = []): string {
  let out = text;
  for (const secret of known) if (secret && secret.length >= 6) out = out.split(secret).join(REDACTED);
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}
