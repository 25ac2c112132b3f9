import { z } from "zod/mini";
import { EVENT_TYPES } from "../wire/protocol.ts";

/** offer_lead_card raised a stage's lead card in the chat (worker only: the card comes from the agent's config). */
export const LeadOffered = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(120)),
  at: z.number(),
  type: z.literal(EVENT_TYPES.leadOffered),
  data: z.object({ stageId: z.string().check(z.maxLength(40)), cardId: z.string().check(z.maxLength(100)) }),
});

/** A lead card raised in the chat, and when: sent once the stage's actions hold its card's result after it. */
export type LeadOffer = z.infer<typeof LeadOffered>["data"] & { at: number };
