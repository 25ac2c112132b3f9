import { context, sign } from "./sign.ts";

/** Carbon monoxide, the poison nobody sees: its sources, its symptoms, and who shares them (NHS; UKHSA). */

export const CO_SOURCE = context(
  "fumes",
  [
    "heaters?",
    "boiler",
    "furnace",
    "generator",
    "(?:gas|wood|coal) (?:fire|stove|heater)",
    "charcoal",
    "bbq",
    "barbecue",
    "grill",
    "car (?:running|engine)",
    "engine (?:running|on|idling)",
    "exhaust",
    "(?:closed|shut) garage",
    "(?:central )?heating",
    "gas fire",
    "fireplace",
    "chimney",
    "carbon monoxide",
    "co (?:alarm|detector)",
    "(?:alarm|detector) (?:is |was |keeps |kept )?(?:beeping|going off)",
  ],
  [
    "煤气",
    "燃气",
    "天然气",
    "炭火",
    "炭盆",
    "烧炭",
    "暖气",
    "热水器",
    "锅炉",
    "取暖器",
    "一氧化碳",
    "煤炉",
    "蜂窝煤",
    "发电机",
    "报警器",
    "发动机",
    "车库",
    "尾气",
  ],
);

/** Carbon monoxide: headache, dizziness, sickness in several people sharing a room (NHS; UKHSA). */
export const CO_SYMPTOMS = sign(
  "fume symptoms",
  [
    "headaches?",
    "dizzy",
    "nause\\w*",
    "vomit\\w*",
    "sick",
    "sleepy",
    "drowsy",
    "confused",
    "passed out",
    "fainted",
    "collapsed",
  ],
  ["头痛", "头疼", "头晕", "恶心", "呕吐", "想吐", "犯困", "迷糊", "昏", "晕倒", "叫不醒", "叫不太醒"],
);

export const SEVERAL_PEOPLE = context(
  "several people",
  [
    "whole family",
    "(?:all|both) of us",
    "everyone",
    "we all",
    "all (?:of )?(?:us|the kids)",
    "family",
    "my (?:wife|husband) and",
    // Pets fall ill from carbon monoxide too (NHS: symptoms in pets).
    "(?:dog|cat|pets?)(?:'s| is| are| has| have)? (?:been )?(?:\\w+ )?(?:sleep\\w*|ill|sick|lethargic|unwell|drowsy)",
  ],
  ["全家", "一家人", "家里人", "我们都", "大家都", "都"],
);

/** Symptoms that ease away from home and return there: the pattern of carbon monoxide (NHS; UKHSA). */
export const BETTER_AWAY = sign(
  "better away from home",
  [
    "(?:go|goes|went|get|gets) (?:away|better) when (?:we're|we are|i'm|i am|we go|i go|we get|i get) (?:out|away|" +
      "outside|not (?:at )?home)",
    "come back when (?:we're|i'm|we are|i am|we get|i get) (?:home|back)",
    "better (?:when|once) (?:we're|i'm|we are|i am) (?:out|away)",
  ],
  ["出门就好", "离开家就好", "一出门就好", "回家(?:就|又)(?:痛|疼|晕|不舒服)"],
);
