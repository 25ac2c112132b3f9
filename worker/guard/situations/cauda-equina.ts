import { sign, zhGap } from "./sign.ts";

/** A compressed cauda equina: what a visitor with back pain notices between the legs and on the toilet. */

/**
 * Cauda equina: numbness between the legs (saddle), trouble passing urine, weak legs, with back pain
 * (NICE CKS: Sciatica and back pain red flags; GIRFT 2023 national suspected cauda equina pathway).
 */
export const SADDLE_NUMB = sign(
  "saddle numbness",
  [
    "numb\\w* (?:between (?:my|his|her) legs|in (?:my|his|her) (?:bum|buttocks|groin|saddle|genitals))",
    "(?:between (?:my|his|her) legs|(?:bum|buttocks|groin|genitals)) (?:is |are |feels? |went |gone )*numb",
    "saddle (?:numb\\w*|anaesth\\w*|anesth\\w*)",
    "(?:can't|couldn't) feel (?:\\w+ )?(?:when i wipe|the toilet paper)",
  ],
  [`(?:屁股|肛门|会阴|大腿内侧|裆|下体)${zhGap(6)}(?:麻|没感觉|没知觉)`],
);

export const BLADDER = sign(
  "bladder or bowel",
  [
    "(?:can't|couldn't|can barely|unable to) (?:pee|wee|urinate|pass urine)",
    "(?:pee|wee|urinate) properly",
    "(?:wet|wetting) myself",
    "incontinen\\w*",
    "(?:urinary )?retention",
  ],
  [`(?:小便|尿|大便)${zhGap(3)}(?:解不出|排不出|尿不出|失禁|拉不出)`, "尿不出"],
);

export const BACK_PAIN = sign(
  "back pain",
  [
    "(?:back|spine)[^.,]{0,15}(?:pain|hurts?|ache|aching|agony)",
    "(?:pain|ache) in (?:my|his|her) (?:lower )?back",
    "sciatica",
  ],
  ["腰.{0,3}(?:痛|疼)", "背.{0,3}(?:痛|疼)", "坐骨神经"],
);
