import { context, sign, zhGap } from "./sign.ts";

/** Serotonin toxicity: the medicines that cause it and the twitching that marks it. */

/**
 * Serotonin toxicity: a serotonergic medicine added or raised, then twitching or clonus with fever,
 * sweating, a racing heart or agitation (Hunter criteria, Dunkley et al. 2003; BNF).
 */
export const SEROTONERGIC = context(
  "serotonergic medicine",
  [
    "antidepressants?",
    "ssris?",
    "snris?",
    "sertraline",
    "fluoxetine",
    "citalopram",
    "escitalopram",
    "paroxetine",
    "venlafaxine",
    "duloxetine",
    "tramadol",
    "maois?",
    "linezolid",
    "st john'?s wort",
    "sumatriptan",
    "mdma",
  ],
  ["抗抑郁药", "舍曲林", "氟西汀", "西酞普兰", "帕罗西汀", "文拉法辛", "度洛西汀", "曲马多"],
);

export const CLONUS = sign(
  "twitching or clonus",
  ["muscles? (?:are |keep |keeps )?(?:twitching|jerking|spasming)", "twitching (?:muscles|all over)", "clonus"],
  [`肌肉${zhGap(4)}(?:跳|抽动|颤|僵硬)`, "一跳一跳", "抽动"],
);
