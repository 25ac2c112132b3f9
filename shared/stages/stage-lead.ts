import type { StageConfig } from "../config/stage-config.ts";

/** The lead card of a stage, if it has one: a modal action card marked `lead` (stage-config.ts). */
export const leadCardOf = (stage: Pick<StageConfig, "actionCards"> | undefined) =>
  stage?.actionCards.find((c) => c.type === "modal" && c.lead);

/** Whether any stage of an agent has a lead card: its model may raise it with offer_lead_card then. */
export const hasLeadCard = (agent: { stages: ReadonlyArray<Pick<StageConfig, "actionCards">> }) =>
  agent.stages.some((s) => leadCardOf(s));
