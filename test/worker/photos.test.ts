import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { pushToIndex } from "../helpers/worker/index-push.ts";
import { agreeToPhotos, auth, call, openSession as open, SITE_KEY } from "../helpers/worker/client.ts";
import {
  bareJpeg,
  commentSegment,
  exifSegment,
  gif,
  pdf,
  png,
  vp8,
  vp8l,
  VP8L_1x1,
  vp8x,
  webp,
  withJpegSegments,
  xmpSegment,
} from "../helpers/photo-bytes.ts";
import { imageFacts } from "../../worker/photos/image-bytes.ts";
import { photoKey } from "../../worker/photos/photo-store.ts";
import { DEMO_ADMIN_KEY } from "../../worker/demo/index.ts";
import { HEADERS } from "../../shared/wire/protocol.ts";

const json = async (r: Response) => (await r.json()) as any;
const WIDGET_SCALES = "(the widget scales photos down before uploading)";
/** bareJpeg's SOI and APP0 take 20 bytes, its frame header (SOF0) the next 13. */
const withoutFrameHeader = (jpeg: Uint8Array) => Uint8Array.from([...jpeg.subarray(0, 20), ...jpeg.subarray(33)]);

/** Sessions of the photo agent whose visitor agreed to its photo notice (the consent test asks first). */
const openSession = async (...args: Parameters<typeof open>) => {
  const s = await open(...args);
  if (s.agent.photos) await agreeToPhotos(s);
  return s;
};

const upload = (s: { sessionId: string; token: string }, bytes: Uint8Array, type = "image/jpeg", sid = s.sessionId) =>
  call(`/v1/sessions/${sid}/photos`, {
    method: "POST",
    body: bytes,
    headers: { ...auth(s.token), "content-type": type },
  });

const read = (s: { sessionId: string; token: string }, id: string, token = s.token) =>
  call(`/v1/sessions/${s.sessionId}/photos/${id}`, { headers: auth(token) });

describe("POST /v1/sessions/:id/photos", () => {
  it("stores a clean photo in R2 under the session, readable with the session's token, no-store", async () => {
    const s = await openSession();
    const bytes = bareJpeg();
    const { res } = await upload(s, bytes);
    expect(res.status).toBe(201);
    const stored = await json(res);
    expect(stored).toMatchObject({ type: "image/jpeg", bytes: bytes.length });
    const object = await env.PHOTOS.get(photoKey(SITE_KEY, s.sessionId, stored.id));
    const kept = new Uint8Array(await object!.arrayBuffer());
    expect(imageFacts(kept)).toEqual({ type: "image/jpeg", metadata: [], animated: false });
    const got = await read(s, stored.id);
    expect(got.res.status).toBe(200);
    expect(got.res.headers.get("cache-control")).toBe("no-store");
    expect(got.res.headers.get("content-type")).toBe("image/jpeg");
    expect(new Uint8Array(await got.res.arrayBuffer())).toEqual(bytes);
  });

  it.each([
    ["a JPEG with Exif GPS and orientation", withJpegSegments(bareJpeg(), exifSegment(6)), "APP1 Exif"],
    ["a JPEG with XMP", withJpegSegments(bareJpeg(), xmpSegment()), "APP1 XMP"],
    ["a JPEG with a comment", withJpegSegments(bareJpeg(), commentSegment("taken at home")), "COM"],
    ["a PNG with tEXt", png([["tEXt", new TextEncoder().encode("Location\0Paris")]]), "PNG tEXt"],
    ["a PNG with eXIf", png([["eXIf", exifSegment(1).subarray(10)]]), "PNG eXIf"],
    ["a WebP with EXIF", webp([VP8L_1x1, ["EXIF", exifSegment(1).subarray(10)]]), "WebP EXIF"],
    ["a WebP with XMP", webp([VP8L_1x1, ["XMP ", xmpSegment().subarray(4)]]), "WebP XMP"],
  ])("refuses %s (422 photo_metadata) and stores nothing", async (_what, bytes, segment) => {
    const s = await openSession();
    const { res } = await upload(s, bytes);
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.error.code).toBe("photo_metadata");
    expect(body.error.message).toContain(segment);
    const listed = await env.PHOTOS.list({ prefix: `photos/${SITE_KEY}/${s.sessionId}/` });
    expect(listed.objects).toHaveLength(0);
  });

  it.each([
    ["a PDF named photo.jpg", pdf(), "image/jpeg"],
    ["an animated GIF", gif(2), "image/gif"],
    ["an SVG", new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), "image/svg+xml"],
  ])("refuses %s with 415", async (_what, bytes, type) => {
    const s = await openSession();
    const { res } = await upload(s, bytes, type);
    expect(res.status).toBe(415);
    expect((await json(res)).error.code).toBe("unsupported_media_type");
  });

  it("accepts a still GIF, a clean PNG and a clean WebP, typed by their bytes", async () => {
    const s = await openSession();
    for (const [bytes, type] of [
      [gif(1), "image/gif"],
      [png(), "image/png"],
      [webp([VP8L_1x1]), "image/webp"],
    ] as const) {
      const { res } = await upload(s, bytes, "application/octet-stream");
      expect(res.status).toBe(201);
      expect((await json(res)).type).toBe(type);
    }
  });

  it("refuses a photo over the agent's limit with 413 (default 4 MB)", async () => {
    const s = await openSession();
    const big = new Uint8Array(4 * 1024 * 1024 + 1);
    big.set(bareJpeg());
    const { res } = await upload(s, big);
    expect(res.status).toBe(413);
    expect((await json(res)).error).toMatchObject({
      code: "payload_too_large",
      message: expect.stringContaining("4.0 MB"),
    });
  });

  it("reads an upload without Content-Length (chunked) only up to the limit, then answers 413", async () => {
    const s = await openSession();
    const chunk = new Uint8Array(64 * 1024);
    chunk.set(bareJpeg());
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (pulled >= 32 * 1024 * 1024) return ctrl.close();
        pulled += chunk.byteLength;
        ctrl.enqueue(chunk.slice());
      },
    });
    const { res } = await call(`/v1/sessions/${s.sessionId}/photos`, {
      method: "POST",
      body,
      headers: { ...auth(s.token), "content-type": "image/jpeg" },
    });
    expect(res.status).toBe(413);
    expect((await json(res)).error.code).toBe("payload_too_large");
    // The agent's limit is 4 MB: the worker stopped reading there, not at the stream's 32 MB.
    expect(pulled).toBeLessThan(5 * 1024 * 1024);
  });

  it("takes a chunked upload within the limit", async () => {
    const s = await openSession();
    const bytes = bareJpeg();
    const body = new ReadableStream<Uint8Array>({
      start(ctrl) {
        for (let at = 0; at < bytes.length; at += 7) ctrl.enqueue(bytes.slice(at, at + 7));
        ctrl.close();
      },
    });
    const { res } = await call(`/v1/sessions/${s.sessionId}/photos`, {
      method: "POST",
      body,
      headers: { ...auth(s.token), "content-type": "image/jpeg" },
    });
    expect(res.status).toBe(201);
    expect((await json(res)).bytes).toBe(bytes.length);
  });

  it.each([
    ["a JPEG", bareJpeg(60000, 60000), "60000 × 60000"],
    ["a JPEG one pixel too wide", bareJpeg(1569, 1000), "1569 × 1000"],
    ["a PNG", png([], 60000, 60000), "60000 × 60000"],
    ["a WebP canvas (VP8X)", webp([vp8x(60000, 60000), VP8L_1x1]), "60000 × 60000"],
    ["a lossless WebP (VP8L)", webp([vp8l(16384, 16384)]), "16384 × 16384"],
    ["a lossy WebP (VP8)", webp([vp8(16000, 9000)]), "16000 × 9000"],
    ["a GIF's logical screen", gif(1, 60000, 60000), "60000 × 60000"],
  ])(
    "refuses %s declaring more pixels than the agent's long side (413), before anything decodes it",
    async (_what, bytes, size) => {
      const s = await openSession();
      expect(bytes.length).toBeLessThan(1024);
      const { res } = await upload(s, bytes);
      expect(res.status).toBe(413);
      expect((await json(res)).error).toEqual({
        code: "payload_too_large",
        message: `The photo is ${size} px; at most 1568 px on its long side ` + WIDGET_SCALES,
      });
      const listed = await env.PHOTOS.list({ prefix: `photos/${SITE_KEY}/${s.sessionId}/` });
      expect(listed.objects).toHaveLength(0);
    },
  );

  it.each([
    ["a JPEG without a frame header", withoutFrameHeader(bareJpeg())],
    ["a JPEG whose height comes later (DNL)", bareJpeg(100, 0)],
    ["a PNG whose first chunk is not its header", png().subarray(0, 8)],
  ])("refuses %s: its pixel size cannot be read (415)", async (_what, bytes) => {
    const s = await openSession();
    const { res } = await upload(s, bytes);
    expect(res.status).toBe(415);
    expect((await json(res)).error.message).toContain("pixel size");
  });

  it("takes a photo exactly the agent's long side wide", async () => {
    const s = await openSession();
    expect((await upload(s, bareJpeg(1568, 1176))).res.status).toBe(201);
    expect((await upload(s, webp([vp8x(1176, 1568), vp8l(1176, 1568)]))).res.status).toBe(201);
  });

  it("refuses an agent that does not take photos, with a clear message", async () => {
    const s = await openSession("medical-qa");
    const { res } = await upload(s, bareJpeg());
    expect(res.status).toBe(403);
    expect((await json(res)).error).toMatchObject({
      code: "photos_unavailable",
      message: expect.stringContaining("photos"),
    });
    expect(s.agent.photos).toBeUndefined();
  });

  it("tells the widget the photo settings of an agent that takes them", async () => {
    const s = await openSession();
    expect(s.agent.photos).toMatchObject({ enabled: true, maxPerMessage: 3, maxBytes: 4194304, longSide: 1568 });
    expect(s.agent.photos!.consent["zh-CN"]).toBeTruthy();
  });
});

describe("reading photos", () => {
  it("answers another session's token with 404, for reading and uploading", async () => {
    const s = await openSession();
    const other = await openSession();
    const { id } = await json((await upload(s, bareJpeg())).res);
    const got = await read(s, id, other.token);
    expect(got.res.status).toBe(404);
    expect((await json(got.res)).error.code).toBe("not_found");
    expect((await upload(other, bareJpeg(), "image/jpeg", s.sessionId)).res.status).toBe(404);
    expect((await read(s, id, "not-a-token")).res.status).toBe(401);
  });

  it("serves a photo as an image only: sniffed type, nosniff, an empty sandbox, a worker-made name", async () => {
    const s = await openSession();
    const { id } = await json((await upload(s, png(), "text/html")).res);
    const owner = `/v1/admin/sessions/${s.sessionId}/photos/${id}?site=${SITE_KEY}`;
    for (const { res } of [await read(s, id), await call(owner, { headers: { [HEADERS.adminKey]: DEMO_ADMIN_KEY } })]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      expect(res.headers.get("content-disposition")).toBe(`inline; filename="photo-${id}.png"`);
      await res.body?.cancel();
    }
  });

  it("lets the site owner read a photo with the admin key", async () => {
    const s = await openSession();
    const { id } = await json((await upload(s, bareJpeg())).res);
    const path = `/v1/admin/sessions/${s.sessionId}/photos/${id}?site=${SITE_KEY}`;
    const owner = await call(path, { headers: { [HEADERS.adminKey]: DEMO_ADMIN_KEY } });
    expect(owner.res.status).toBe(200);
    expect(owner.res.headers.get("cache-control")).toBe("no-store");
    expect((await call(path, { headers: { [HEADERS.adminKey]: "wrong-key" } })).res.status).toBe(401);
  });
});

describe("deleting photos", () => {
  const ADMIN = "owner-key-" + "p".repeat(20);
  const owner = (path: string, init: RequestInit = {}) =>
    call(path, { ...init, headers: { [HEADERS.adminKey]: ADMIN, ...(init.headers ?? {}) } });
  const inSite = async (siteKey: string) => {
    const s = await openSession("derm-consult", {}, { siteKey });
    const { id } = await json((await upload(s, bareJpeg())).res);
    return { s, id, key: photoKey(siteKey, s.sessionId, id) };
  };

  it("the owner's deletion of a conversation takes its photos from R2, and no other conversation's", async () => {
    const siteKey = await putSite({ adminKeySha256: await sha256Hex(ADMIN) });
    const gone = await inSite(siteKey);
    const kept = await inSite(siteKey);
    await pushToIndex(gone.s.sessionId, kept.s.sessionId);
    const del = await owner(`/v1/admin/sessions/${gone.s.sessionId}?site=${siteKey}`, { method: "DELETE" });
    expect(del.res.status).toBe(204);
    expect(await env.PHOTOS.get(gone.key)).toBeNull();
    expect(await env.PHOTOS.get(kept.key)).not.toBeNull();
  });

  it(
    "the retention purge (the site index's alarm) takes an " + "expired conversation's photos, and keeps recent ones",
    async () => {
      const siteKey = await putSite({ adminKeySha256: await sha256Hex(ADMIN), retentionDays: 30 });
      const old = await inSite(siteKey);
      const recent = await inSite(siteKey);
      await pushToIndex(old.s.sessionId, recent.s.sessionId);
      const index = env.SITE_INDEX.get(env.SITE_INDEX.idFromName(siteKey));
      await runInDurableObject(index, (_obj, state) => {
        state.storage.sql.exec(
          "UPDATE sessions SET last = ? WHERE sid = ?",
          Date.now() - 31 * 86_400_000,
          old.s.sessionId,
        );
      });
      expect(await runDurableObjectAlarm(index)).toBe(true);
      expect(await env.PHOTOS.get(old.key)).toBeNull();
      expect(await env.PHOTOS.get(recent.key)).not.toBeNull();
    },
  );
});
