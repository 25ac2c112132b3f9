/** UTF-8 bytes of a string, without encoding it. */
export function utf8Bytes(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // One more byte from U+0080, two more from U+0800; a surrogate pair is four bytes in all.
    if (c >= 0x80) n += c < 0x800 || (c >= 0xd800 && c < 0xe000) ? 1 : 2;
  }
  return n;
}

/**
 * The most tokens one image can cost: gpt-4o-mini counts a high-detail image at 2 833 tokens plus
 * 5 667 a tile, up to about 37 000 for six tiles (the most OpenAI's sizing makes); gpt-4o and
 * Anthropic's models count far fewer.
 */
export const IMAGE_TOKENS_BOUND = 40_000;

/**
 * The most tokens one provider request can cost, reserved from the site's budget before it is
 * sent: the completion's cap plus the request's size in bytes. A byte-level BPE tokenizer (OpenAI's,
 * Llama's, Qwen's, DeepSeek's) never makes more tokens than bytes, and the request's JSON is longer
 * than the text the model sees (the keys and quotes outweigh a chat template's few tokens a message).
 * `json` is the request before its photos became data URLs; each image adds its own bound.
 */
export function turnReserve(body: Record<string, unknown>, json: string, images = 0): number {
  const cap = Number(body.max_completion_tokens ?? body.max_tokens ?? 0);
  return (Number.isFinite(cap) ? cap : 0) + utf8Bytes(json) + images * IMAGE_TOKENS_BOUND;
}
