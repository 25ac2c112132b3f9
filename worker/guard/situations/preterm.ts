import { context, sign } from "./sign.ts";

/** Labour before 37 weeks: the weeks said, and contractions coming regularly. */

/** Labour or waters breaking before 37 weeks: preterm labour (NICE NG25; RCOG Green-top 73). */
export const PRETERM = context(
  "preterm",
  [
    "^(?:2\\d|3[0-6]) ?(?:weeks?|wks?)",
    "(?:2\\d|3[0-6]) ?(?:weeks?|wks?) (?:pregnant|along|gestation)",
    "too early",
    "premature",
    "preterm",
  ],
  ["(?:2\\d|3[0-6]) ?周", "太早", "早产"],
);

export const REGULAR_CONTRACTIONS = sign(
  "regular contractions",
  ["(?:tightenings?|contractions?|cramps?|pains?)[^.]{0,20}every (?:\\d+|few|two|three|four|five|ten) ?min\\w*"],
  ["每.{0,4}分钟.{0,4}(?:紧|痛|疼|一次)", "一阵一阵.{0,2}(?:硬|紧|痛|疼)"],
);
