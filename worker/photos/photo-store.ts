import type { Env } from "../env.ts";
import { photoBucket, requirePhotoBucket } from "../placement/photo-bucket.ts";

/**
 * Photos in R2, one object per photo under its site and session: `photos/<site>/<session>/<id>`.
 * The session prefix lets the conversation's erasure (its deletion by the owner, the site's retention
 * purge) take its photos with it. Nothing here is public: the routes read an
 * object only for its own session's token or the site owner's key. A conversation of a site with a
 * jurisdiction keeps its photos in that jurisdiction's bucket (placement/photo-bucket.ts).
 */
export interface StoredPhoto {
  id: string;
  type: string;
  bytes: number;
  uploadedAt: number;
}

const sitePrefix = (siteKey: string) => `photos/${encodeURIComponent(siteKey)}/`;
const sessionPrefix = (siteKey: string, sessionId: string) => `${sitePrefix(siteKey)}${sessionId}/`;
export const photoKey = (siteKey: string, sessionId: string, id: string) => sessionPrefix(siteKey, sessionId) + id;

export function newPhotoId(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

export async function putPhoto(
  env: Env,
  where: { siteKey: string; sessionId: string; id: string },
  bytes: Uint8Array,
  type: string,
): Promise<StoredPhoto> {
  const uploadedAt = Date.now();
  await requirePhotoBucket(env, where.sessionId).put(photoKey(where.siteKey, where.sessionId, where.id), bytes, {
    httpMetadata: { contentType: type },
    customMetadata: { uploadedAt: String(uploadedAt) },
  });
  return { id: where.id, type, bytes: bytes.byteLength, uploadedAt };
}

export async function getPhoto(env: Env, siteKey: string, sessionId: string, id: string) {
  const object = await photoBucket(env, sessionId)?.get(photoKey(siteKey, sessionId, id));
  if (!object) return null;
  return { type: object.httpMetadata?.contentType ?? "application/octet-stream", bytes: await object.arrayBuffer() };
}

/** How many photos a session holds (its uploads are capped, so a visitor cannot fill the bucket). */
export async function countSessionPhotos(env: Env, siteKey: string, sessionId: string): Promise<number> {
  const bucket = requirePhotoBucket(env, sessionId);
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: sessionPrefix(siteKey, sessionId), cursor });
    count += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return count;
}

/** A session's photos, oldest first: their ids, sizes and upload times (the visitor's download embeds them). */
export async function listSessionPhotos(
  env: Env,
  siteKey: string,
  sessionId: string,
): Promise<Array<Omit<StoredPhoto, "type">>> {
  const prefix = sessionPrefix(siteKey, sessionId);
  const bucket = photoBucket(env, sessionId);
  const photos: Array<Omit<StoredPhoto, "type">> = [];
  if (!bucket) return photos;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    for (const o of page.objects)
      photos.push({ id: o.key.slice(prefix.length), bytes: o.size, uploadedAt: o.uploaded.getTime() });
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return photos.sort((a, b) => a.uploadedAt - b.uploadedAt);
}

async function deleteListed(bucket: R2Bucket | null, prefix: string) {
  let deleted = 0;
  let cursor: string | undefined;
  // No bucket bound for the conversation's jurisdiction: none of its photos can have been stored.
  if (!bucket) return deleted;
  do {
    const page = await bucket.list({ prefix, cursor });
    const gone = page.objects.map((o) => o.key);
    // R2 deletes at most 1000 keys a call; a list page holds at most 1000.
    if (gone.length) await bucket.delete(gone);
    deleted += gone.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}

/**
 * Every photo of a session: part of the conversation's erasure (session/erase-session.ts), for the
 * owner's delete and the site's retention purge alike. Answers how many went.
 */
export function deleteSessionPhotos(env: Env, siteKey: string, sessionId: string): Promise<number> {
  return deleteListed(photoBucket(env, sessionId), sessionPrefix(siteKey, sessionId));
}
