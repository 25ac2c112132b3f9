import { leadCardOf } from "../../shared/stages/stage-lead.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import { stageById } from "../../shared/stages/stage-machine.ts";
import { ApiError } from "../errors.ts";
import type { EdgeToolContext, EdgeToolOutput } from "./registry.ts";
import { sessionRoom } from "../objects.ts";
import type { SessionEvent } from "../../shared/session/session-events.ts";

/**
 * offer_lead_card: raises the current stage's lead card in the chat. The card is the agent's config,
 * never the model's words; what the visitor sends in it goes through the card's action route, which
 * checks their consent and sends `lead.captured` (webhooks/lead-card.ts).
 */
export async function offerLead(ctx: EdgeToolContext): Promise<EdgeToolOutput> {
  const room = sessionRoom(ctx.env, ctx.sessionId);
  const state = await room.getState();
  const stage = stageById(ctx.agent.stages, state.stage.current);
  const card = leadCardOf(stage);
  if (!stage || !card)
    throw new ApiError(409, "conflict", "The current stage has no lead card; go on with the conversation");
  const event = {
    id: `lead:${card.id}:${crypto.randomUUID().slice(0, 8)}`,
    at: Date.now(),
    type: EVENT_TYPES.leadOffered,
    data: { stageId: stage.id, cardId: card.id },
  } as SessionEvent;
  await room.append([event]);
  const instruction =
    "The visitor sees a card to leave their name, e-mail and company for the team, and to agree to be " +
    "contacted. Say so in one sentence; do not ask for these details in the chat.";
  return { result: { shown: true, instruction }, events: [event] };
}
