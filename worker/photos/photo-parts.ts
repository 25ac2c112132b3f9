import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import { imageUrlOf, PHOTO_ID, PHOTO_URL_PREFIX } from "../../shared/chat/photo-ref.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import type { UpstreamBody } from "../llm/upstream-body.ts";
import { photoAccess } from "./photo-access.ts";
import { getPhoto } from "./photo-store.ts";

type Part = { type: string; image_url?: unknown };

function base64(bytes: ArrayBuffer): string {
  const b = new Uint8Array(bytes);
  let s = "";
  // In slices: String.fromCharCode with a whole photo's bytes as arguments overflows the stack.
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * Swaps each `parley-photo:<id>` image part of the request for the stored photo as a data URL (the
 * provider sees the bytes the worker checked, never bytes a browser chose), in new message objects:
 * the request's own messages, which the session stores, keep the references. Any other image URL
 * is refused: images reach the model only through the upload route's checks. Answers how many
 * photos the request carries.
 */
export async function resolvePhotoParts(
  env: Env,
  site: SiteConfig,
  agent: AgentConfig,
  sessionId: string,
  body: UpstreamBody,
): Promise<number> {
  const refs: Array<{ message: number; part: number; id: string }> = [];
  body.messages.forEach((m, i) => {
    if (typeof m.content === "string" || !m.content) return;
    let inMessage = 0;
    m.content.forEach((p, j) => {
      const url = imageUrlOf(p as Part);
      if (url === null) return;
      const id = url.startsWith(PHOTO_URL_PREFIX) ? url.slice(PHOTO_URL_PREFIX.length) : "";
      if (m.role !== "user" || !PHOTO_ID.test(id))
        throw new ApiError(
          400,
          "validation_failed",
          `messages[${i - 1}].content[${j}]: images are accepted only in visitor messages, as ` +
            `${PHOTO_URL_PREFIX}<id> of a photo uploaded to this session (POST /v1/sessions/:id/photos)`,
        );
      refs.push({ message: i, part: j, id });
      inMessage++;
    });
    const limit = agent.photos?.maxPerMessage ?? 0;
    if (inMessage > limit)
      throw new ApiError(400, "validation_failed", `messages[${i - 1}]: at most ${limit} photos a message`);
  });
  if (!refs.length) return 0;
  const access = photoAccess(env, site, agent);
  if (!access.ok) throw new ApiError(403, "photos_unavailable", access.reason);
  const photos = await Promise.all(refs.map((r) => getPhoto(env, site.siteKey, sessionId, r.id)));
  const copies = new Map<number, Part[]>();
  refs.forEach((r, k) => {
    const photo = photos[k];
    if (!photo) throw new ApiError(400, "validation_failed", `Photo ${r.id} is not in this session (deleted?)`);
    let parts = copies.get(r.message);
    if (!parts) copies.set(r.message, (parts = [...(body.messages[r.message].content as Part[])]));
    const detail = (parts[r.part].image_url as { detail?: string }).detail ?? "high";
    parts[r.part] = {
      type: "image_url",
      image_url: { url: `data:${photo.type};base64,${base64(photo.bytes)}`, detail },
    };
  });
  for (const [i, parts] of copies)
    body.messages[i] = { ...body.messages[i], content: parts } as UpstreamBody["messages"][number];
  return refs.length;
}
