import type { PhotoType } from "../../shared/chat/photo-ref.ts";

/**
 * The pixel size an image declares in its header, read before anything decodes it: a file of a few
 * KB can declare 60000 × 60000 px, which a decoder (the provider's, the owner's browser) would try to
 * allocate. The largest size any part of the file declares counts; null when none can be read.
 */
export interface PixelSize {
  width: number;
  height: number;
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const u32le = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

function largest(sizes: PixelSize[]): PixelSize | null {
  if (!sizes.length || sizes.some((s) => !s.width || !s.height)) return null;
  return {
    width: Math.max(...sizes.map((s) => s.width)),
    height: Math.max(...sizes.map((s) => s.height)),
  };
}

export function declaredSize(b: Uint8Array, type: PhotoType): PixelSize | null {
  if (type === "image/jpeg") return largest(jpegSizes(b));
  if (type === "image/png") return b.length >= 24 && ascii(b, 12, 4) === "IHDR" ? pngSize(b) : null;
  if (type === "image/webp") return largest(webpSizes(b));
  return largest(gifSizes(b));
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic; DHP for hierarchical ones). */
const isFrameHeader = (m: number) => (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) || m === 0xde;

/** Every frame header before the first scan; a height of 0 (set later by a DNL marker) is unreadable. */
function jpegSizes(b: Uint8Array): PixelSize[] {
  const sizes: PixelSize[] = [];
  let at = 2;
  while (at + 4 <= b.length && b[at] === 0xff) {
    const marker = b[at + 1];
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break;
    if (isFrameHeader(marker) && at + 9 <= b.length) sizes.push({ height: u16be(b, at + 5), width: u16be(b, at + 7) });
    at += 2 + u16be(b, at + 2);
  }
  return sizes;
}

const pngSize = (b: Uint8Array): PixelSize => ({ width: u32be(b, 16), height: u32be(b, 20) });

/** The canvas (VP8X) and each bitstream's frame (VP8 lossy, VP8L lossless). */
function webpSizes(b: Uint8Array): PixelSize[] {
  const sizes: PixelSize[] = [];
  for (let at = 12; at + 8 <= b.length;) {
    const kind = ascii(b, at, 4);
    const size = u32le(b, at + 4);
    const d = at + 8;
    if (kind === "VP8X" && d + 10 <= b.length) sizes.push({ width: u24le(b, d + 4) + 1, height: u24le(b, d + 7) + 1 });
    if (kind === "VP8 " && d + 10 <= b.length && b[d + 3] === 0x9d && b[d + 4] === 0x01 && b[d + 5] === 0x2a)
      sizes.push({ width: u16le(b, d + 6) & 0x3fff, height: u16le(b, d + 8) & 0x3fff });
    if (kind === "VP8L" && d + 5 <= b.length && b[d] === 0x2f) {
      const bits = u32le(b, d + 1);
      sizes.push({ width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 });
    }
    at = d + size + (size & 1);
  }
  return sizes;
}

/** The logical screen and each frame's image descriptor. */
function gifSizes(b: Uint8Array): PixelSize[] {
  if (b.length < 13) return [];
  const sizes: PixelSize[] = [{ width: u16le(b, 6), height: u16le(b, 8) }];
  let at = 13;
  if (b[10] & 0x80) at += 3 * (1 << ((b[10] & 7) + 1));
  const skipSubBlocks = () => {
    while (at < b.length && b[at] !== 0) at += b[at] + 1;
    at += 1;
  };
  while (at < b.length && b[at] !== 0x3b) {
    if (b[at] === 0x2c && at + 10 <= b.length) {
      sizes.push({ width: u16le(b, at + 5), height: u16le(b, at + 7) });
      const packed = b[at + 9];
      at += 10 + (packed & 0x80 ? 3 * (1 << ((packed & 7) + 1)) : 0) + 1;
      skipSubBlocks();
    } else if (b[at] === 0x21) {
      at += 2;
      skipSubBlocks();
    } else break;
  }
  return sizes;
}
