/**
 * How a message refers to a photo the visitor uploaded: an OpenAI `image_url` part whose URL is
 * `parley-photo:<id>`. The worker swaps it for the stored bytes (a data URL) before the provider
 * sees the request, so the browser never hands the model image bytes of its own. Pure, for both sides.
 */
export const PHOTO_URL_PREFIX = "parley-photo:";

/** Photo ids are minted by the worker: 32 hex characters. */
export const PHOTO_ID = /^[0-9a-f]{32}$/;

/** The image types the worker accepts (OpenAI vision input: PNG, JPEG, WebP, non-animated GIF). */
export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];

export type PhotoPart = {
  type: "image_url";
  image_url: { url: string; detail?: "low" | "high" | "auto" };
};

export function photoPart(id: string): PhotoPart {
  // `high`: a skin photo's small detail is what the consult is about.
  return { type: "image_url", image_url: { url: PHOTO_URL_PREFIX + id, detail: "high" } };
}

interface AnyPart {
  type: string;
  image_url?: unknown;
}

/** The `image_url` part's URL, or null for any other part. */
export function imageUrlOf(part: AnyPart): string | null {
  if (part.type !== "image_url") return null;
  const v = part.image_url as { url?: unknown } | string | undefined;
  const url = typeof v === "string" ? v : v?.url;
  return typeof url === "string" ? url : "";
}

/** The photo ids a message's content refers to, in order. */
export function photoIdsIn(content: string | readonly AnyPart[] | null | undefined): string[] {
  if (!content || typeof content === "string") return [];
  return content.flatMap((p) => {
    const url = imageUrlOf(p);
    return url?.startsWith(PHOTO_URL_PREFIX) ? [url.slice(PHOTO_URL_PREFIX.length)] : [];
  });
}
