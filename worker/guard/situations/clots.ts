import { context, sign, zhGap } from "./sign.ts";

/** A clot in a vein that travels to the lungs, or one that blocks a limb's artery: both say so in plain words. */

/** A deep vein thrombosis: one calf or leg swollen and sore (NICE NG158). */
export const DVT_SIGNS = sign(
  "swollen calf",
  [
    "(?:left |right |one )?(?:calf|leg) (?:is |has been |feels? |got )?(?:\\w+ )?(?:swollen|painful|sore|tender)",
    "swollen (?:and (?:sore|painful|tender) )?(?:left |right )?(?:calf|leg)",
  ],
  [`(?:小腿|腿肚)${zhGap(4)}(?:肿|痛|疼)`, `一(?:条|边)腿${zhGap(3)}肿`],
);

export const CLOT_RISK = context(
  "clot risk",
  [
    "long[- ]haul",
    "long (?:flight|drive|journey|car ride|bus ride)",
    "(?:after|since) (?:my |the |an |a )?(?:surgery|operation|op|flight)",
    "on the pill",
    "bed ?(?:ridden|bound)",
    "(?:leg )?in a (?:plaster )?cast",
  ],
  ["长途(?:飞机|飞行|坐车|航班)", "坐了.{0,6}飞机", "手术后", "卧床", "避孕药", "打石膏"],
);

/** Pain on breathing in: pleuritic pain, with a swollen calf the sign of a pulmonary embolism (NICE NG158). */
export const PLEURITIC = sign(
  "pain on breathing in",
  [
    "(?:pain|hurts?|stabbing)[^.]{0,20}when (?:i |he |she )?(?:breathe|breathing|take a (?:deep )?breath|inhale)",
    "(?:pain|hurts?) (?:to|on) (?:breathe|breathing|inhal\\w*)",
  ],
  [`(?:吸气|呼吸|深呼吸)(?:时|的时候)?${zhGap(3)}(?:痛|疼|刺)`],
);

/** Acute limb ischaemia: a foot or leg suddenly cold and pale, numb or weak (ESVS 2020, the "six Ps"). */
export const LIMB_COLD_PALE = sign(
  "limb cold and pale",
  [
    "(?:foot|leg|calf|arm) (?:\\w+ )?(?:went|gone|turned|is|has gone|going) (?:\\w+ )?(?:cold and (?:white|pal" +
      "e|blue|mottled)|(?:white|pale|blue) and cold|ice[- ]cold and (?:white|pale))",
  ],
  [
    `(?:脚|腿|小腿|胳膊|手臂)${zhGap(4)}(?:冰凉|冰冷|发凉)${zhGap(2)}(?:发白|苍白|发紫|发青)`,
    `(?:脚|腿|小腿|胳膊|手臂)${zhGap(4)}(?:发白|苍白|发紫)${zhGap(2)}(?:冰凉|冰冷|发凉)`,
  ],
);

export const LIMB_NUMB_WEAK = sign(
  "limb numb or weak",
  [
    "(?:toes|foot|leg|fingers|hand|arm)[^.]{0,12}(?:numb|dead|no feeling)",
    "(?:can't|can barely|barely|can hardly) (?:move|wiggle|feel) (?:them|it|my toes|my foot|my leg)",
  ],
  ["没(?:什么|有)?知觉", "动不(?:太)?了", "麻木", "没感觉"],
);
