import { z } from "zod/mini";
import { LOCALES } from "../config/localized-text.ts";

/** Markdown is ranked as its words (the index drops punctuation) and handed to the model as written. */
export const KNOWLEDGE_FORMATS = ["markdown", "text"] as const;
export const KNOWLEDGE_LIMITS = { docs: 500, titleChars: 200, textChars: 100_000 } as const;

/** A document as the owner writes it (the console's form): the body of POST and PUT. */
export const KnowledgeDocInput = z.object({
  title: z.string().check(z.trim(), z.minLength(1), z.maxLength(KNOWLEDGE_LIMITS.titleChars)),
  text: z.string().check(z.trim(), z.minLength(1), z.maxLength(KNOWLEDGE_LIMITS.textChars)),
  format: z._default(z.enum(KNOWLEDGE_FORMATS), "markdown"),
  /** The language it is written in, for the owner's list; the index ranks English and Chinese alike. */
  locale: z.optional(z.enum(LOCALES)),
});
export type KnowledgeDocInput = z.input<typeof KnowledgeDocInput>;

/**
 * A document `knowledge_search` ranks, as stored in KV (`docs:<tenantId>`, a JSON array). The
 * fields past id, title and text are optional: documents written before the console have none.
 */
export const KnowledgeDoc = z.object({
  id: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/)),
  title: z.string(),
  text: z.string(),
  format: z.optional(z.enum(KNOWLEDGE_FORMATS)),
  locale: z.optional(z.enum(LOCALES)),
  updatedAt: z.optional(z.number()),
});
export type KnowledgeDoc = z.infer<typeof KnowledgeDoc>;
