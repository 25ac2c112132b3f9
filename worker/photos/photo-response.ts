import type { PhotoType } from "../../shared/chat/photo-ref.ts";

const EXTENSIONS: Record<PhotoType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
};

/**
 * A stored photo's bytes, for its visitor or the site's owner. Never cached by the browser or
 * anything between (a clinic's photos). The type is the one its bytes were sniffed as on upload, and
 * the browser may not guess another (nosniff); opened on its own, it renders as an image in a
 * sandbox with no script, style or request allowed, under a name of the worker's making.
 */
export function photoResponse(photo: { id: string; type: string; bytes: ArrayBuffer }): Response {
  const ext = EXTENSIONS[photo.type as PhotoType];
  return new Response(photo.bytes, {
    headers: {
      "content-type": ext ? photo.type : "application/octet-stream",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "content-disposition": `inline; filename="photo-${photo.id}.${ext ?? "bin"}"`,
    },
  });
}
