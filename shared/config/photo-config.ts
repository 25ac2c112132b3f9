import { z } from "zod/mini";
import { LocalizedText } from "./localized-text.ts";
import { ConsentVersion } from "../session/consent.ts";

/**
 * Photos in a consult: an agent that enables them lets visitors attach photos, which
 * the browser re-encodes (orientation applied, metadata gone, long side capped) and the worker
 * checks again, stores under the session in R2 and hands the vision model as an image part.
 */
export const PHOTO_DEFAULTS = {
  maxPerMessage: 3,
  /** chatwoot#10101 asks for a configurable limit; 4 MB is far above a re-encoded 1568 px photo. */
  maxBytes: 4 * 1024 * 1024,
  /** LibreChat#11060: about 1568 px on the long side keeps small detail readable for vision models. */
  longSide: 1568,
} as const;

/** The hard ceiling a site may configure: the worker reads a whole upload into memory. */
export const PHOTO_MAX_BYTES_CEILING = 10 * 1024 * 1024;

export const DEFAULT_PHOTO_CONSENT: LocalizedText = {
  en:
    "Photos you add are stored privately with this conversation, " +
    "read by the clinic's assistant, and deleted with it. Location and camera details are removed.",
  "zh-CN": "您添加的照片仅随本次对话私密保存，由诊所助手查看，并随对话一起删除。位置和相机信息会被移除。",
};

export const PhotoConfig = z.object({
  enabled: z._default(z.boolean(), false),
  maxPerMessage: z._default(z.int().check(z.gte(1), z.lte(10)), PHOTO_DEFAULTS.maxPerMessage),
  maxBytes: z._default(z.int().check(z.gte(64 * 1024), z.lte(PHOTO_MAX_BYTES_CEILING)), PHOTO_DEFAULTS.maxBytes),
  longSide: z._default(z.int().check(z.gte(256), z.lte(4096)), PHOTO_DEFAULTS.longSide),
  /** Shown to the visitor before the first photo; the site's own words (en and zh-CN). */
  consent: z._default(LocalizedText, DEFAULT_PHOTO_CONSENT),
  /**
   * The version of that text the visitor agrees to, recorded by the worker before their first upload
   * (consent.given, kind photo); a new version is asked again before the next photo.
   */
  consentVersion: z._default(ConsentVersion, "1"),
});
export type PhotoConfig = z.infer<typeof PhotoConfig>;
