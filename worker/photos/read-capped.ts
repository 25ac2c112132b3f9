/**
 * A request body read up to `maxBytes`, counted as it arrives: null, and the rest left unread, as
 * soon as it passes the limit. An upload without Content-Length (chunked) is never held whole
 * first, so a visitor cannot make the worker buffer more than the limit.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    total += next.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel("over the size limit").catch(() => {});
      return null;
    }
    chunks.push(next.value);
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
