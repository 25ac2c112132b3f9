import { routePath } from "../../shared/wire/route-path.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import * as PRIVACY_ROUTES from "../../shared/wire/privacy-routes.ts";
import { ProtocolError } from "./errors.ts";
import { request, type FetchLike } from "./http.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/**
 * The photo routes, for the photo kit (a lazy chunk: the panel's core does not carry them). Every
 * read carries the session's token: photos have no public URL.
 */
export interface PhotoApi {
  api: string;
  fetch?: FetchLike;
  auth: () => Promise<{ sessionId: string; token: string }>;
}

/** Uploads a re-encoded photo's bytes; answers its id in the session. */
export async function uploadPhoto(p: PhotoApi, photo: Blob): Promise<string> {
  const { sessionId, token } = await p.auth();
  const url = p.api + routePath(ROUTES.sessionPhotos, { id: sessionId });
  const res = await request(url, { body: photo, token, fetch: p.fetch, timeoutMs: 60_000 });
  const body = (await res.json()) as { id?: unknown };
  if (typeof body?.id !== "string") throw new ProtocolError("bad_response", `POST ${url}: no photo id in the answer`);
  return body.id;
}

/** The visitor agreed to the agent's photo notice (this version): the worker records it; its events come back. */
export async function givePhotoConsent(p: PhotoApi, version: string): Promise<SessionEvent[]> {
  const { sessionId, token } = await p.auth();
  const url = p.api + routePath(PRIVACY_ROUTES.sessionConsent, { id: sessionId });
  const res = await request(url, { body: { kind: "photo", version }, token, fetch: p.fetch });
  const body = (await res.json()) as { events?: unknown };
  if (!Array.isArray(body?.events)) throw new ProtocolError("bad_response", `POST ${url}: no events in the answer`);
  return body.events as SessionEvent[];
}

/** A stored photo's bytes, read with the session's token. */
export async function readPhoto(p: PhotoApi, photoId: string): Promise<Blob> {
  const { sessionId, token } = await p.auth();
  const res = await request(p.api + routePath(ROUTES.sessionPhoto, { id: sessionId, photoId }), {
    token,
    fetch: p.fetch,
  });
  return res.blob();
}
