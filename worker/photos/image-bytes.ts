import type { PhotoType } from "../../shared/chat/photo-ref.ts";

/**
 * What an uploaded file is, read from its bytes (never its name or Content-Type), and what in it
 * could identify the visitor. Phone photos carry GPS, capture time and device ids in Exif and XMP;
 * the widget re-encodes every photo through a canvas, which writes none, so a file that still has
 * such a segment did not come through the widget, and is refused rather than edited here.
 */
export interface ImageFacts {
  type: PhotoType;
  /** Metadata segments found, by name (`APP1 Exif`, `PNG tEXt`, `WebP EXIF`, …); empty when clean. */
  metadata: string[];
  /** A GIF or WebP with more than one frame (vision models read only the first). */
  animated: boolean;
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const u32le = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/** The type by magic bytes; null for anything else (a PDF named .jpg included). */
export function sniffType(b: Uint8Array): PhotoType | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 8 && ascii(b, 0, 8) === "\x89PNG\r\n\x1a\n") return "image/png";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "image/webp";
  if (b.length >= 6 && (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a")) return "image/gif";
  return null;
}

export function imageFacts(b: Uint8Array): ImageFacts | null {
  const type = sniffType(b);
  if (!type) return null;
  if (type === "image/jpeg") return { type, metadata: jpegMetadata(b), animated: false };
  if (type === "image/png") return { type, metadata: pngMetadata(b), animated: false };
  if (type === "image/webp") return { type, ...webpFacts(b) };
  return { type, ...gifFacts(b) };
}

const JPEG_METADATA: Record<number, string> = { 0xe1: "APP1", 0xed: "APP13 (IPTC)", 0xfe: "COM" };

/** JPEG segments up to the image data: APP1 (Exif, XMP), APP13 (Photoshop/IPTC) and comments. */
function jpegMetadata(b: Uint8Array): string[] {
  const found: string[] = [];
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return [...found, "a malformed JPEG segment"];
    const marker = b[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Markers without a length: TEM, RST0-7. Start of scan or end of image: the headers are over.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break;
    const length = u16be(b, at + 2);
    const name = JPEG_METADATA[marker];
    if (name) {
      const id = ascii(b, at + 4, 29);
      found.push(id.startsWith("Exif\0") ? "APP1 Exif" : id.startsWith("http://ns.adobe.com/xap") ? "APP1 XMP" : name);
    }
    at += 2 + length;
  }
  return found;
}

const PNG_TEXT = new Set(["eXIf", "tEXt", "iTXt", "zTXt", "tIME"]);

function pngMetadata(b: Uint8Array): string[] {
  const found: string[] = [];
  for (let at = 8; at + 8 <= b.length;) {
    const length = u32be(b, at);
    const kind = ascii(b, at + 4, 4);
    if (PNG_TEXT.has(kind)) found.push(`PNG ${kind}`);
    if (kind === "IEND") break;
    at += 12 + length;
  }
  return found;
}

/** RIFF chunks of a WebP: EXIF and XMP hold metadata, ANIM marks an animation. */
function webpFacts(b: Uint8Array): { metadata: string[]; animated: boolean } {
  const metadata: string[] = [];
  let animated = false;
  for (let at = 12; at + 8 <= b.length;) {
    const kind = ascii(b, at, 4);
    const size = u32le(b, at + 4);
    if (kind === "EXIF" || kind === "XMP ") metadata.push(`WebP ${kind.trim()}`);
    if (kind === "ANIM") animated = true;
    at += 8 + size + (size & 1);
  }
  return { metadata, animated };
}

/** GIF blocks: frames (image descriptors), comment extensions and XMP application extensions. */
function gifFacts(b: Uint8Array): { metadata: string[]; animated: boolean } {
  const metadata: string[] = [];
  let frames = 0;
  let at = 13;
  if (b[10] & 0x80) at += 3 * (1 << ((b[10] & 7) + 1)); // global colour table
  const skipSubBlocks = () => {
    while (at < b.length && b[at] !== 0) at += b[at] + 1;
    at += 1;
  };
  while (at < b.length) {
    const block = b[at];
    if (block === 0x3b) break; // trailer
    if (block === 0x2c) {
      frames++;
      const packed = b[at + 9];
      at += 10;
      if (packed & 0x80) at += 3 * (1 << ((packed & 7) + 1)); // local colour table
      at += 1; // LZW minimum code size
      skipSubBlocks();
    } else if (block === 0x21) {
      const label = b[at + 1];
      if (label === 0xfe) metadata.push("GIF comment");
      if (label === 0xff && ascii(b, at + 3, 11) === "XMP DataXMP") metadata.push("GIF XMP");
      at += 2;
      skipSubBlocks();
    } else {
      metadata.push("a malformed GIF block");
      break;
    }
  }
  return { metadata, animated: frames > 1 };
}
