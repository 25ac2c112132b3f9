import { Hono, type Context } from "hono";
import * as ROUTES from "../../shared/wire/routes.ts";
import { PHOTO_ID } from "../../shared/chat/photo-ref.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { checkSiteOrigin } from "../middleware/site-origin.ts";
import { admitTurn } from "../limits/admission.ts";
import { loadSessionAgent } from "../config/config-store.ts";
import { chatConsent, photoConsent } from "../config/consent-notice.ts";
import { imageFacts } from "../photos/image-bytes.ts";
import { declaredSize } from "../photos/image-size.ts";
import { photoAccess } from "../photos/photo-access.ts";
import { photoResponse } from "../photos/photo-response.ts";
import { readCapped } from "../photos/read-capped.ts";
import { countSessionPhotos, getPhoto, newPhotoId, putPhoto } from "../photos/photo-store.ts";

export const photoRoutes = new Hono<AppEnv>();

/** Uploads a session may hold, in messages' worth: enough for a consult, not a photo store. */
const MESSAGES_OF_PHOTOS = 10;

/**
 * A photo route's session: the token's own, else 404, so another session's token learns nothing,
 * not even that the session exists. From an allowed origin, within the rate limits.
 */
async function ownPhotoSession(c: Context<AppEnv>) {
  const claims = c.var.claims;
  if (c.req.param("id") !== claims.sid) throw new ApiError(404, "not_found", "No such photo");
  const site = await checkSiteOrigin(c, claims.site, false);
  await admitTurn(c, site, claims);
  return { claims, site };
}

/**
 * An upload's session, as ownPhotoSession, and its agent's photo access: the visitor has agreed to the current
 * versions of the agent's consent notices, the conversation's (if it asks one) and the photos' own
 * (403 consent_required with the notice otherwise), checked in the same call to the session's object.
 */
async function uploadSession(c: Context<AppEnv>) {
  const claims = c.var.claims;
  if (c.req.param("id") !== claims.sid) throw new ApiError(404, "not_found", "No such photo");
  const [site, agent] = await Promise.all([checkSiteOrigin(c, claims.site, false), loadSessionAgent(c.env, claims)]);
  if (!agent) throw new ApiError(404, "unknown_agent", `Agent ${claims.agent} no longer exists`);
  // An agent that cannot take photos answers so (403 photos_unavailable), not with a notice to agree to.
  const access = photoAccess(c.env, site, agent);
  const notices = [chatConsent(site, agent), access.ok ? photoConsent(site, agent) : null].filter((n) => n !== null);
  await admitTurn(c, site, claims, notices);
  return { claims, site, access };
}

const notFound = () => new ApiError(404, "not_found", "No such photo");

/**
 * The body is the image itself (any Content-Type: the bytes decide). Checked before it is stored:
 * size (413), type by magic bytes (415), the pixel size its header declares (413 past the agent's
 * `longSide`, before anything decodes it), animation (415) and metadata segments (422), the agent's
 * photo setting and its model's vision (403), the visitor's consent (403 consent_required).
 */
photoRoutes.post(ROUTES.sessionPhotos, sessionToken(), async (c) => {
  const { claims, site, access } = await uploadSession(c);
  if (!access.ok) throw new ApiError(403, "photos_unavailable", access.reason);
  const { maxBytes, maxPerMessage, longSide } = access.config;
  const tooLarge = () =>
    new ApiError(413, "payload_too_large", `The photo is larger than ${(maxBytes / 1024 / 1024).toFixed(1)} MB`);
  if (Number(c.req.header("content-length") ?? 0) > maxBytes) throw tooLarge();
  const bytes = await readCapped(c.req.raw.body, maxBytes);
  if (!bytes) throw tooLarge();
  if (!bytes.byteLength) throw new ApiError(400, "bad_request", "The request body is empty: send the image's bytes");
  const facts = imageFacts(bytes);
  if (!facts)
    throw new ApiError(415, "unsupported_media_type", "The file is not a JPEG, PNG, WebP or GIF image (by its bytes)");
  const size = declaredSize(bytes, facts.type);
  if (!size) throw new ApiError(415, "unsupported_media_type", "The image's pixel size cannot be read from its header");
  if (Math.max(size.width, size.height) > longSide)
    throw new ApiError(
      413,
      "payload_too_large",
      `The photo is ${size.width} × ${size.height} px; at most ${longSide} px on its long side ` +
        `(the widget scales photos down before uploading)`,
    );
  if (facts.animated)
    throw new ApiError(415, "unsupported_media_type", "Animated images are not accepted; send a still photo");
  if (facts.metadata.length)
    throw new ApiError(
      422,
      "photo_metadata",
      `The photo still carries metadata (${facts.metadata.join(", ")}), which can hold its location and ` +
        `the device; re-encode it without metadata (the widget does this before uploading)`,
    );
  if ((await countSessionPhotos(c.env, site.siteKey, claims.sid)) >= maxPerMessage * MESSAGES_OF_PHOTOS)
    throw new ApiError(409, "conflict", "This conversation holds as many photos as it may; start a new one");
  const stored = await putPhoto(
    c.env,
    { siteKey: site.siteKey, sessionId: claims.sid, id: newPhotoId() },
    bytes,
    facts.type,
  );
  return c.json(stored, 201);
});

photoRoutes.get(ROUTES.sessionPhoto, sessionToken(), async (c) => {
  const { claims, site } = await ownPhotoSession(c);
  const id = c.req.param("photoId");
  const photo = PHOTO_ID.test(id) ? await getPhoto(c.env, site.siteKey, claims.sid, id) : null;
  if (!photo) throw notFound();
  return photoResponse({ id, ...photo });
});
