import { z } from "zod/mini";
import { TOOL_NAMES } from "./tool-names.ts";
import { defineTool } from "./tool.ts";

/**
 * A sales agent raises its stage's lead card in the chat: a card where the visitor writes their name,
 * e-mail and company and gives their consent themselves. Offered while the current stage has a lead
 * card; the model never sends a lead, so it can never give consent on the visitor's behalf.
 */
export const offerLeadCard = defineTool({
  name: TOOL_NAMES.offerLeadCard,
  runsOn: "edge",
  description: [
    "Show the visitor a card to leave their name, e-mail and company for the sales team, with their consent",
    "to be contacted. Use it when the visitor wants to be contacted or a quote. Do not ask for these details",
    "in the chat: the visitor fills them in the card.",
  ].join(" "),
  input: z.object({}),
});
