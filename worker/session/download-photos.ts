import type { Env } from "../env.ts";
import { getPhoto, type StoredPhoto } from "../photos/photo-store.ts";
import type { EmbeddedPhoto } from "./download-html.ts";

/**
 * The most photo bytes one downloaded file embeds: base64 makes them a third larger, and the whole file
 * is built in the worker's memory. Re-encoded photos are a few hundred KB; a photo past this is named.
 */
export const DOWNLOAD_PHOTO_BYTES = 12 * 1024 * 1024;

/** The session's photos as data: URLs, oldest first, until DOWNLOAD_PHOTO_BYTES; the others marked too large. */
export async function embedPhotos(
  env: Env,
  siteKey: string,
  sessionId: string,
  photos: ReadonlyArray<Pick<StoredPhoto, "id" | "bytes">>,
): Promise<Map<string, EmbeddedPhoto>> {
  const embedded = new Map<string, EmbeddedPhoto>();
  let total = 0;
  for (const p of photos) {
    if (total + p.bytes > DOWNLOAD_PHOTO_BYTES) {
      embedded.set(p.id, { tooLarge: true });
      continue;
    }
    const photo = await getPhoto(env, siteKey, sessionId, p.id);
    if (!photo) continue;
    total += photo.bytes.byteLength;
    embedded.set(p.id, { url: `data:${photo.type};base64,${base64(new Uint8Array(photo.bytes))}` });
  }
  return embedded;
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  // In slices: one call with every byte as an argument would overflow the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
