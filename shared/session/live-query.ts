import { z } from "zod/mini";

const Offset = z.optional(z.coerce.number().check(z.int(), z.nonnegative()));
/** The live channel's query: a whole-channel follow from `after`, or one reply's rest from `from`. */
export const LiveQuery = z.object({
  after: Offset,
  reply: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  from: Offset,
  // The page (tab) of a whole-channel follow: its own replies' text is not sent to it.
  tab: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});
