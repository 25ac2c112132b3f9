import { AIRWAY } from "./airway.ts";
import { BURNS } from "./burns.ts";
import { CHILD_MODEL } from "./child.ts";
import { CIRCULATION } from "./circulation.ts";
import { DRUG_REACTION } from "./drug-reaction.ts";
import { HEAT_GAS } from "./heat-gas.ts";
import { NEURO } from "./neuro.ts";
import { OBSTETRIC } from "./obstetric.ts";
import { POISONING } from "./poisoning.ts";
import { SELF_HARM } from "./self-harm.ts";
import { SEPSIS } from "./sepsis.ts";
import type { SituationModel } from "./sign.ts";

/** The clinical model, crisis first (as the card reports it), then as a dispatcher would ask. */
export const SITUATION_MODELS: readonly SituationModel[] = [
  SELF_HARM,
  AIRWAY,
  CIRCULATION,
  NEURO,
  DRUG_REACTION,
  SEPSIS,
  POISONING,
  BURNS,
  OBSTETRIC,
  CHILD_MODEL,
  HEAT_GAS,
];
