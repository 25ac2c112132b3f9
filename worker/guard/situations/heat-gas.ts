import { BREATHING_HARD, CONFUSED_DROWSY, CONFUSION, DIZZY_FAINT, VOMITING } from "./lexicon.ts";
import { context, sign, when, zhGap, type SituationModel } from "./sign.ts";

const HEAT = context(
  "heat",
  [
    "(?:3[2-9]|4\\d) ?°? ?c",
    "roofing",
    "left (?:in|inside) (?:a|the) (?:hot )?car",
    "hiking",
    "half marathon",
    "heat",
    "sun",
    "hot (?:car|day|weather)",
    "heat ?wave",
    "all day (?:outside|in the sun|on the roof)",
    "on the roof all day",
    "outside all day",
    "working (?:outside|on the roof)",
    "marathon",
    "football practice",
    "(?:3[2-9]|4\\d) degrees?",
    "(?:3[2-9]|4\\d) all (?:week|day)",
    "sauna",
  ],
  [
    "车上",
    "没开?(?:冷气|空调)",
    "半马",
    "跑完",
    "中暑",
    "太阳",
    "高温",
    "暴晒",
    "烈日",
    "天热",
    "很热",
    "闷热",
    "工地",
    "跑步",
    "马拉松",
    "桑拿",
    "车里",
    "热天",
    "热浪",
    "晒",
  ],
);

/** Heatstroke: a hot body that stopped sweating, confusion, collapse (NHS: Heat exhaustion and heatstroke). */
const NO_SWEAT = sign(
  "not sweating",
  [
    "(?:stopped|not|isn't|no longer|hasn't been) sweating",
    "skin (?:is )?(?:hot and dry|dry and hot)",
    "dry skin",
    "skin is dry",
    "no sweat(?:ing)?(?: at all)?",
  ],
  ["不出汗", "没汗", "没晒汗", "皮肤.{0,3}(?:干|烫)", "没有汗"],
);
const HOT_BODY = sign(
  "hot body",
  [
    "scalding",
    "skin (?:is )?(?:scalding|burning|boiling)",
    "hot and dry",
    "hot to (?:the )?touch",
    "skin (?:is |feels )?(?:\\w+ )?hot",
    "hot and (?:red|flushed)",
    "(?:really|very|so|burning) hot(?: to (?:the )?touch)?",
    "hot as",
    "burning up",
    "temp(?:erature)? (?:of |is )?(?:40|41|42|104|105|106)",
    "(?:40|41|42)(?:\\.\\d)? ?(?:c|degrees)",
  ],
  [
    "超烫",
    "(?:好|很|超)烫",
    "烫得",
    "体温(?:好|很)高",
    "全身很烫",
    "身体很烫",
    "(?:好|很|非常)热",
    "烫手",
    "很烫",
    "好烫",
    "体温.{0,3}(?:40|41|42)",
    `(?:全身|身上|身体)${zhGap(2)}(?:发)?烫`,
  ],
);

const HEATSTROKE = context("heatstroke", ["heat ?stroke", "sun ?stroke", "heat exhaustion"], ["中暑", "热射病"]);

/** Carbon monoxide named, or its alarm sounding. */
const CO_NAMED = context(
  "carbon monoxide",
  ["carbon monoxide", "co (?:alarm|detector)", "(?:alarm|detector) (?:is |was |keeps |kept )?(?:beeping|going off)"],
  ["一氧化碳", "煤气中毒", "报警器.{0,3}(?:响|叫)"],
);

const GAS = context(
  "gas",
  ["(?:smell|smells|smelling) (?:of )?gas", "gas (?:smell|leak)", "smells like gas", "rotten eggs"],
  ["煤气味", "燃气味", "瓦斯", "煤气", "燃气", "天然气", "gas leak"],
);
const GAS_SYMPTOMS = sign(
  "gas symptoms",
  ["headaches?", "dizzy", "vomit\\w*", "nause\\w*", "passed out", "fainted", "collapsed", "sleepy", "drowsy", "sick"],
  ["头痛", "头疼", "头晕", "想吐", "呕吐", "晕倒", "站不稳", "headache"],
);

/** Hypothermia: stopped shivering, drowsy, confused (NHS: Hypothermia). */
const COLD = context(
  "cold",
  [
    "fell (?:in|into|through) (?:the )?(?:ice|lake|river|sea|water)",
    "pulled (?:him|her|them) out of the (?:water|lake|river)",
    "freezing",
    "cold as ice",
    "ice cold",
    "hypotherm\\w*",
    "in the snow",
    "cold water",
    "fell in (?:the )?(?:lake|river|sea|water)",
  ],
  ["掉进冰", "落水", "冰冷", "冻僵", "失温", "雪山", "雪地", "掉进.{0,3}(?:河|湖|冰|水)"],
);
const COLD_SIGNS = sign(
  "hypothermia signs",
  [
    "stopped shivering",
    "not shivering",
    "drowsy",
    "mumbling",
    "confused(?! (?:about|by|why|whether|as to|if|with|what|how|which|on))|confusion",
    "slurr\\w*",
    "stiff",
  ],
  ["不再发抖", "不发抖了", "不抖了", "意识模糊", "迷糊", "说话不清", "僵"],
);

const SMOKE = context(
  "smoke",
  ["smoke", "(?:house|kitchen|flat) fire", "fire"],
  ["烟", "火灾", "着火", "起火", "浓烟"],
);
const SMOKE_HARM = sign(
  "smoke inhalation",
  [
    "cough\\w* (?:up )?(?:black|soot)",
    "soot (?:in|around)",
    "hoarse",
    "voice (?:is )?changing",
    "coughing (?:a lot|nonstop|non-stop)",
  ],
  ["咳.{0,3}黑", "嗓子哑", "声音嘶哑"],
);

export const HEAT_GAS: SituationModel = {
  id: "heat_gas",
  sources: [
    "NHS: Heat exhaustion and heatstroke (confusion, no sweating, collapse: call 999)",
    "NHS: Carbon monoxide poisoning; gas leaks: leave the building",
    "NHS: Hypothermia (stopped shivering, drowsiness, confusion)",
    "NHS: Smoke inhalation after a fire",
    "中华医学会, 热射病急诊诊断与治疗专家共识, 2021",
  ],
  combinations: [
    when("heat", HEAT, NO_SWEAT, CONFUSED_DROWSY),
    when("heat", HEAT, HOT_BODY, CONFUSED_DROWSY),
    when("heat", HEAT, HOT_BODY, DIZZY_FAINT),
    when("heat", NO_SWEAT, HOT_BODY, CONFUSED_DROWSY),
    when("heat", HOT_BODY, CONFUSED_DROWSY, DIZZY_FAINT),
    when("heat", HEATSTROKE, CONFUSED_DROWSY),
    // NHS: heat exhaustion with new confusion is heatstroke, call 999.
    when("heat", HEAT, CONFUSION),
    when("heat", HEATSTROKE, DIZZY_FAINT, VOMITING),
    when("heat", HEATSTROKE, NO_SWEAT),
    when("heat", HEATSTROKE, HOT_BODY, DIZZY_FAINT),
    when("gas", CO_NAMED, GAS_SYMPTOMS),
    when("gas", CO_NAMED, CONFUSED_DROWSY),
    when("gas", GAS, GAS_SYMPTOMS),
    when("gas", GAS, VOMITING),
    when("cold", COLD, COLD_SIGNS),
    when("breathing", SMOKE, SMOKE_HARM),
    when("breathing", SMOKE, BREATHING_HARD),
  ],
};
