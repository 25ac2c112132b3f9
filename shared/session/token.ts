import { z } from "zod/mini";

/** The payload a session token signs. Shared so both sides can read expiry; only the worker can sign. */
export const TokenClaims = z.object({
  sid: z.string(),
  site: z.string(),
  /** The agent the session talks to: the chat route needs no storage read to know it. */
  agent: z.string(),
  /** The signed-in rep, from the host's signed identity verified at session open (profile_reader). */
  rep: z.optional(z.string()),
  /** The session runs the agent's draft (opened by the owner's console to try it), not the published agent. */
  draft: z.optional(z.boolean()),
  exp: z.number(),
});
export type TokenClaims = z.infer<typeof TokenClaims>;
