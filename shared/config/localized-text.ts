import { z } from "zod/mini";

export const LOCALES = ["en", "zh-CN"] as const;
export type Locale = (typeof LOCALES)[number];

/** Text a visitor reads, in every supported language. */
export const LocalizedText = z.object({ en: z.string(), "zh-CN": z.string() });
export type LocalizedText = z.infer<typeof LocalizedText>;
