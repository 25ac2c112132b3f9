import { findPii } from "./find-pii.ts";
import { placeholder } from "./pii-types.ts";

/** `text` with each personal detail replaced by its typed placeholder (`[email]`, `[phone]`, …). */
export function redactText(text: string): string {
  const found = findPii(text);
  if (!found.length) return text;
  let out = "";
  let at = 0;
  for (const m of found) {
    out += text.slice(at, m.start) + placeholder(m.type);
    at = m.end;
  }
  return out + text.slice(at);
}
