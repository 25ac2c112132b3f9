/**
 * Test photos written byte by byte (no binary blobs in the repo): the metadata a phone writes
 * (Exif with GPS, capture time, camera and orientation; XMP), in JPEG, PNG, WebP and GIF files,
 * and files that only pretend to be images. Pure: runs in Node, workerd and (inlined) Chromium.
 */
const enc = new TextEncoder();

function concat(parts: Array<Uint8Array | number[]>): Uint8Array {
  const arrays = parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p)));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}
const be16 = (n: number) => [(n >> 8) & 255, n & 255];
const be32 = (n: number) => [(n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255];
const le32 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255];

interface Entry {
  tag: number;
  type: 2 | 3 | 4 | 5; // ASCII, SHORT, LONG, RATIONAL
  count: number;
  /** SHORT/LONG: the value; ASCII and RATIONAL: bytes stored after the IFD. */
  value: number | number[];
}

/** A big-endian TIFF IFD at `offset` (from the TIFF header), with its out-of-line data after it. */
function ifd(entries: Entry[], offset: number): number[] {
  const dataStart = offset + 2 + entries.length * 12 + 4;
  const data: number[] = [];
  const out: number[] = [...be16(entries.length)];
  for (const e of entries) {
    out.push(...be16(e.tag), ...be16(e.type), ...be32(e.count));
    if (typeof e.value === "number") out.push(...(e.type === 3 ? [...be16(e.value), 0, 0] : be32(e.value)));
    else if (e.value.length <= 4) out.push(...e.value, ...new Array(4 - e.value.length).fill(0));
    else {
      out.push(...be32(dataStart + data.length));
      data.push(...e.value);
      if (data.length & 1) data.push(0);
    }
  }
  return [...out, ...be32(0), ...data];
}

const asciiValue = (s: string) => [...enc.encode(s), 0];
const rationals = (...pairs: Array<[number, number]>) => pairs.flatMap(([n, d]) => [...be32(n), ...be32(d)]);

/** GPS of the test photos: 48°51'29.6"N 2°17'40.2"E (a real place: what must never leave the phone). */
export const TEST_GPS = { latitude: "48/1 51/1 296/10 N", longitude: "2/1 17/1 402/10 E" };

/** An APP1 Exif segment as a phone writes it: camera, capture time, orientation and GPS. */
export function exifSegment(orientation = 1): Uint8Array {
  const ifd0Offset = 8;
  const ifd0Entries = (gpsOffset: number): Entry[] => [
    { tag: 0x010f, type: 2, count: 6, value: asciiValue("Phone") },
    { tag: 0x0110, type: 2, count: 9, value: asciiValue("Model 12") },
    { tag: 0x0112, type: 3, count: 1, value: orientation },
    { tag: 0x0132, type: 2, count: 20, value: asciiValue("2026:11:23 09:41:00") },
    { tag: 0x8825, type: 4, count: 1, value: gpsOffset },
  ];
  const gpsOffset = ifd0Offset + ifd(ifd0Entries(0), ifd0Offset).length;
  const gps = ifd(
    [
      { tag: 1, type: 2, count: 2, value: asciiValue("N") },
      { tag: 2, type: 5, count: 3, value: rationals([48, 1], [51, 1], [296, 10]) },
      { tag: 3, type: 2, count: 2, value: asciiValue("E") },
      { tag: 4, type: 5, count: 3, value: rationals([2, 1], [17, 1], [402, 10]) },
    ],
    gpsOffset,
  );
  const tiff = [...enc.encode("MM"), 0, 42, ...be32(ifd0Offset), ...ifd(ifd0Entries(gpsOffset), ifd0Offset), ...gps];
  const body = [...enc.encode("Exif\0\0"), ...tiff];
  return Uint8Array.from([0xff, 0xe1, ...be16(body.length + 2), ...body]);
}

export function xmpSegment(): Uint8Array {
  const xml =
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.493N"/></rdf:RDF></x:xmpmeta>';
  const body = [...enc.encode("http://ns.adobe.com/xap/1.0/\0"), ...enc.encode(xml)];
  return Uint8Array.from([0xff, 0xe1, ...be16(body.length + 2), ...body]);
}

export function commentSegment(text: string): Uint8Array {
  const body = enc.encode(text);
  return concat([[0xff, 0xfe, ...be16(body.length + 2)], body]);
}

/** Segments inserted right after a JPEG's SOI marker, where cameras put them. */
export function withJpegSegments(jpeg: Uint8Array, ...segments: Uint8Array[]): Uint8Array {
  return concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/** A JPEG's structure (JFIF header, a frame header of that size, a scan, end): for checks that read bytes. */
export function bareJpeg(width = 1, height = 1): Uint8Array {
  const jfif = [...enc.encode("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  return Uint8Array.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    ...be16(jfif.length + 2),
    ...jfif,
    // SOF0: 8-bit samples, height, width, one component.
    ...[0xff, 0xc0, 0, 11, 8, ...be16(height), ...be16(width), 1, 1, 0x11, 0],
    0xff,
    0xda,
    0,
    2,
    1,
    2,
    3,
    0xff,
    0xd9,
  ]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(kind: string, data: Uint8Array | number[]): Uint8Array {
  const body = concat([enc.encode(kind), data]);
  return concat([be32(body.length - 4), body, be32(crc32(body))]);
}

/** A PNG (1x1, or declaring that size), with the given extra chunks (`tEXt`, `eXIf`, …) before its image data. */
export function png(extra: Array<[string, Uint8Array | number[]]> = [], width = 1, height = 1): Uint8Array {
  const ihdr = [...be32(width), ...be32(height), 8, 2, 0, 0, 0];
  // zlib stream of one filtered row (filter 0, RGB 255 0 0), stored without compression.
  const idat = [0x78, 0x01, 0x01, 0x04, 0x00, 0xfb, 0xff, 0x00, 0xff, 0x00, 0x00, 0x03, 0x01, 0x01, 0x00];
  return concat([
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    pngChunk("IHDR", ihdr),
    ...extra.map(([k, d]) => pngChunk(k, d)),
    pngChunk("IDAT", idat),
    pngChunk("IEND", []),
  ]);
}

function riffChunk(kind: string, data: Uint8Array): Uint8Array {
  return concat([enc.encode(kind), le32(data.length), data, data.length & 1 ? [0] : []]);
}

/** A WebP container with the given chunks (`VP8L`, `EXIF`, `XMP `, `ANIM`). */
export function webp(chunks: Array<[string, Uint8Array]>): Uint8Array {
  const body = concat([enc.encode("WEBP"), ...chunks.map(([k, d]) => riffChunk(k, d))]);
  return concat([enc.encode("RIFF"), le32(body.length), body]);
}

/** A 1x1 lossless WebP bitstream's chunk. */
export const VP8L_1x1: [string, Uint8Array] = [
  "VP8L",
  Uint8Array.from([0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0]),
];

/** A WebP's extended header (VP8X) declaring a canvas of that size. */
export function vp8x(width: number, height: number): [string, Uint8Array] {
  const le24 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255];
  return ["VP8X", Uint8Array.from([0, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)])];
}

/** A lossless WebP bitstream's header declaring that size (14 bits each: at most 16384). */
export function vp8l(width: number, height: number): [string, Uint8Array] {
  const bits = (width - 1) | ((height - 1) << 14);
  return ["VP8L", Uint8Array.from([0x2f, ...le32(bits), 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0])];
}

/** A lossy WebP key frame's header declaring that size (14 bits each). */
export function vp8(width: number, height: number): [string, Uint8Array] {
  const le16 = (n: number) => [n & 255, (n >> 8) & 255];
  return ["VP8 ", Uint8Array.from([0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...le16(width), ...le16(height), 0, 0])];
}

/** A GIF of `frames` 1x1 frames, on a logical screen of 1x1 or the given size. */
export function gif(frames: number, width = 1, height = 1): Uint8Array {
  const frame = [0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0];
  const le16 = (n: number) => [n & 255, (n >> 8) & 255];
  const parts: number[][] = [
    [...enc.encode("GIF89a"), ...le16(width), ...le16(height), 0x80, 0, 0, 255, 0, 0, 0, 0, 0],
  ];
  for (let i = 0; i < frames; i++) parts.push(frame);
  parts.push([0x3b]);
  return concat(parts);
}

/** A PDF's first bytes: what a visitor might upload named photo.jpg. */
export function pdf(): Uint8Array {
  return enc.encode("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
}

/** The Exif orientation (1..8) in a JPEG's APP1, or null when it carries none. */
export function jpegOrientation(jpeg: Uint8Array): number | null {
  const text = String.fromCharCode(...jpeg.subarray(0, Math.min(jpeg.length, 4096)));
  const at = text.indexOf("Exif\0\0");
  if (at < 0) return null;
  const tiff = at + 6;
  const little = text.slice(tiff, tiff + 2) === "II";
  const u16 = (o: number) => (little ? jpeg[o] | (jpeg[o + 1] << 8) : (jpeg[o] << 8) | jpeg[o + 1]);
  const u32 = (o: number) => (little ? u16(o) | (u16(o + 2) << 16) : (u16(o) << 16) | u16(o + 2));
  const ifd0 = tiff + u32(tiff + 4);
  for (let i = 0; i < u16(ifd0); i++) {
    const e = ifd0 + 2 + i * 12;
    if (u16(e) === 0x0112) return u16(e + 8);
  }
  return null;
}
