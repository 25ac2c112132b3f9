import { Hono, type Context } from "hono";
import { z } from "zod/mini";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { sessionToken } from "../middleware/session-token.ts";
import { checkSiteOrigin } from "../middleware/site-origin.ts";
import { admitTurn } from "../limits/admission.ts";
import { loadSessionAgent } from "../config/config-store.ts";
import { listSessionPhotos } from "../photos/photo-store.ts";
import { downloadHtml } from "../session/download-html.ts";
import { embedPhotos } from "../session/download-photos.ts";
import { eraseByVisitor } from "../session/visitor-erasure.ts";
import { sessionRoom } from "../objects.ts";

export const visitorDataRoutes = new Hono<AppEnv>();

const notFound = () => new ApiError(404, "not_found", "No such conversation");

/**
 * The visitor's own conversation, by its token alone: another session's token is answered as a
 * conversation that does not exist (404, it learns nothing), and so is an erased one's (the session's
 * object no longer knows it). From an allowed origin, within the session's and the address's rates.
 */
async function visitorSession(c: Context<AppEnv>) {
  const claims = c.var.claims;
  if (c.req.param("id") !== claims.sid) throw notFound();
  const site = await checkSiteOrigin(c, claims.site, false);
  await admitTurn(c, site, claims);
  return { claims, site };
}

const DownloadQuery = z.object({ format: z._default(z.enum(["html", "json"]), "html") });

/**
 * The visitor downloads their conversation: one HTML file that opens offline (messages, advice and
 * urgent cards, stage values, their photos embedded; download-html.ts), or the session as JSON (the
 * state the widget restores from, and the photos' ids, types and sizes). Never cached.
 */
visitorDataRoutes.get(ROUTES.sessionDownload, sessionToken(), async (c) => {
  const query = DownloadQuery.safeParse(c.req.query());
  if (!query.success) throw new ApiError(400, "validation_failed", "Invalid query: format: html or json");
  const { claims, site } = await visitorSession(c);
  const [state, agent, photos] = await Promise.all([
    sessionRoom(c.env, claims.sid).getState(),
    loadSessionAgent(c.env, claims),
    listSessionPhotos(c.env, site.siteKey, claims.sid),
  ]);
  if (!state.sessionId) throw notFound();
  const name = `conversation-${state.sessionId}`;
  const headers = (type: string, ext: string) => ({
    "content-type": type,
    "content-disposition": `attachment; filename="${name}.${ext}"`,
    "cache-control": "no-store",
    // Opened from this address it would run nothing either: the file's own policy, as a header.
    "content-security-policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
  });
  if (query.data.format === "json") {
    const body = { exportedAt: Date.now(), conversation: state, photos };
    return c.body(JSON.stringify(body, null, 2), 200, headers("application/json; charset=utf-8", "json"));
  }
  const embedded = await embedPhotos(c.env, site.siteKey, claims.sid, photos);
  const html = downloadHtml(state, agent, embedded, Date.now());
  return c.body(html, 200, headers("text/html; charset=utf-8", "html"));
});

/**
 * "Delete this conversation", from the widget: exactly what the owner's delete erases (its events, its
 * photos, its index rows and trace; a reply streaming now is stopped first, and staff following it are
 * told), and a record for the owner naming only the id (session/visitor-erasure.ts). The token then
 * opens nothing: every session route answers 404, as this one does again.
 */
visitorDataRoutes.delete(ROUTES.session, sessionToken(), async (c) => {
  const { claims, site } = await visitorSession(c);
  if (!(await eraseByVisitor(c.env, site.siteKey, claims.sid))) throw notFound();
  return c.body(null, 204);
});
