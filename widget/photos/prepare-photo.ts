/**
 * A visitor's photo made fit to send, in the browser: decoded with its Exif orientation applied
 * (a phone's portrait photo stays upright), scaled to at most `longSide` pixels on its long side,
 * and re-encoded through a canvas. A canvas writes pixels only, so every metadata segment of the
 * original (Exif with GPS, capture time and device; XMP; comments) is gone by construction.
 */
export class PhotoError extends Error {
  override name = "PhotoError";
  constructor(readonly reason: "unreadable" | "tooLarge") {
    super(reason);
  }
}

/** JPEG at about 0.85; lower only when a photo is still over the size limit. */
const QUALITIES = [0.85, 0.7, 0.55];

export interface PreparedPhoto {
  blob: Blob;
  width: number;
  height: number;
}

export async function preparePhoto(file: Blob, longSide: number, maxBytes: number): Promise<PreparedPhoto> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    // HEIC in Chrome, a PDF, a broken file: nothing the browser can draw.
    throw new PhotoError("unreadable");
  }
  const scale = Math.min(1, longSide / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext("2d")!;
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  for (const quality of QUALITIES) {
    const blob = await canvas.convertToBlob({ type: "image/jpeg", quality });
    if (blob.size <= maxBytes) return { blob, width, height };
  }
  throw new PhotoError("tooLarge");
}
