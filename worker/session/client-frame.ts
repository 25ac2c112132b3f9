import { z } from "zod/mini";
import type { ClientFrame } from "../../shared/session/live.ts";
import { LIVE_LIMITS } from "./live-limits.ts";

const ReplyId = z.string().check(z.minLength(1), z.maxLength(100));
const Offset = z.int().check(z.nonnegative());

/** What a socket may send (shared/session/live.ts): an attach naming a bounded set of replies, or a stop. */
const ClientFrameSchema = z.discriminatedUnion("t", [
  z.object({
    t: z.literal("attach"),
    after: Offset,
    replies: z.optional(
      z
        .record(ReplyId, Offset)
        .check(
          z.refine(
            (r) => Object.keys(r).length <= LIVE_LIMITS.repliesPerAttach,
            `at most ${LIVE_LIMITS.repliesPerAttach} replies`,
          ),
        ),
    ),
    tab: z.optional(z.string().check(z.maxLength(64))),
  }),
  z.object({ t: z.literal("stop"), id: ReplyId }),
]);

/** A socket's frame, checked; null for anything else (not JSON, an unknown frame, a field out of bounds). */
export function readClientFrame(message: string | ArrayBuffer): ClientFrame | null {
  try {
    const text = typeof message === "string" ? message : new TextDecoder().decode(message);
    const parsed = ClientFrameSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
