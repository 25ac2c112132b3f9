import { BREATHING_HARD, CHILD, INFANT } from "./lexicon.ts";
import { FEVER } from "./lexicon-infection.ts";
import { sign, when, zhGap, type SituationModel } from "./sign.ts";

const CHOKING = sign(
  "choking",
  [
    "(?:grabbing|holding) (?:his|her|their|my) throat",
    "gagging",
    "chok\\w*",
    "(?:something|food|a grape|a sweet|candy|a coin|a toy|meat|steak|a bone|a piece of \\w+|piece of " +
      "\\w+) (?:is )?(?:stuck|lodged)",
    "stuck in (?:his|her|my|their|the) (?:throat|windpipe)",
    "clutching (?:his|her|their|my) throat",
    "can't cough",
    "making no (?:sound|noise)",
  ],
  ["呛到", "咳不出来", "噎", "卡住", "卡在喉咙", "卡喉", "卡到", "异物", "呛住", "鲠", "咳不出"],
);

const NO_VOICE = sign(
  "can't speak",
  [
    "can't (?:talk|speak|cough)(?: or (?:talk|speak|cough|breathe))?",
    "can't get words out",
    "can't (?:talk|speak|get a word out|make a sound)",
    "making no (?:sound|noise)",
    "can't say (?:a word|anything)",
    "voice (?:has )?(?:changed|gone)",
    "(?:gone|went|is|fell) (?:completely |totally )?silent",
    "no (?:sound|noise) (?:is )?(?:coming out|at all)",
    // Cannot complete sentences: NICE's life-threatening asthma and WHO ETAT's severe respiratory distress.
    "only (?:say|get out|manage|speak) (?:a few|one or two|two or three|\\w+) words",
    "words between (?:breaths|gasps)",
    "can't (?:finish|complete) (?:a |her |his |my |full )?sentences?",
  ],
  [
    "讲不到东西",
    "说不到话",
    "(?:讲|说)不(?:到|出|了)(?:成句|完整)",
    "说不出话",
    "讲不出话",
    "讲不出",
    "说不了话",
    "发不出声",
    "咳不出声",
    "声音.{0,3}变",
    "说话断断续续",
    "一句话(?:都)?说不(?:完|全|完整)",
    "没(?:有)?声音了",
  ],
);

/** Central cyanosis: a WHO ETAT emergency sign. */
const BLUE = sign(
  "blue or grey",
  [
    "(?:going|turning|gone) (?:\\w+ (?:then |and |to |or )?)?(?:blue|purple|grey|gray|dusky)",
    "bluey? ?gr[ae]y",
    "slate colou?r",
    "(?:turning|gone|going|went) dusky",
    "(?:lips|face|mouth|fingers|fingertips|skin|tongue) (?:are |is |have |has |turning |going |gone |" +
      "went |look |looks )*(?:kind of |a bit |slightly |sort of |quite |really )?(?:blue|purple|grey|gray|dusky)",
    "(?:turning|gone|going|went) (?:blue|purple|grey|gray)",
    "blue (?:lips|around (?:the|his|her) (?:mouth|lips))",
    "a grey colou?r",
  ],
  [
    "嘴.{0,4}乌",
    "面.{0,3}紫",
    "紫晒",
    "紫黑",
    "嘴唇.{0,6}(?:发紫|发青|发乌)",
    "嘴唇.{0,3}(?:发紫|发青|发乌|紫|青|发白)",
    "脸.{0,3}(?:发紫|发青|紫了)",
    "发绀",
    "青紫",
    "嘴.{0,2}紫",
    "发紫",
  ],
);

const THROAT_CLOSING = sign(
  "throat closing",
  [
    "can't swallow (?:his|her|my|their) spit",
    "tongue (?:is )?pushed up",
    "(?:jaw|under (?:my|the|his|her) chin)[^.]{0,30}swollen",
    "can (?:hardly|barely) swallow",
    "tongue[^.,]{0,20}swollen",
    "throat (?:is |feels )?(?:closing|closed|swelling|swollen|tight|tightening|narrowing|closing up)",
    "can't swallow",
    "tongue (?:is )?(?:swell\\w*|swollen|huge|thick)",
    "swollen tongue",
    "(?:drooling|dribbling) and (?:can't|won't)",
  ],
  [
    "吞不下去",
    "掐住",
    `(?:喉咙|嗓子)${zhGap(10)}(?:紧|肿|堵|闭|收窄|tight)`,
    "咽不下",
    "吞不下",
    "舌头.{0,3}(?:肿|大)",
    "难吞",
  ],
);

const ASTHMA = sign(
  "asthma",
  ["asthma\\w*", "inhaler", "puffer", "ventolin", "salbutamol", "albuterol", "nebuli[sz]er"],
  ["气喘", "哮喘", "喷雾", "沙丁胺醇", "万托林", "吸入器"],
);

const SEVERE = sign(
  "severe",
  [
    "(?:isn't|not|aren't|doesn't|didn't|is not) (?:helping|working|touching it|doing anything|making (?:a|any) " +
      "difference)",
    "(?:\\d+|five|six|seven|eight|nine|ten|several|many) (?:or (?:\\d+|\\w+) )?(?:times|puffs)",
    "no (?:help|relief)",
    "(?:\\d+|ten|twenty) puffs",
    "getting worse",
    "worse and worse",
    "that bad",
    "so bad",
    "can't (?:talk|speak|get a word out)",
  ],
  ["不管用", "没用", "不起作用", "没效果", "越来越喘", "喷了.{0,4}次", "说不出话", "讲不出话", "很严重"],
);

/** Upper-airway obstruction in a child: stridor, drooling, tripod sitting (NICE croup and epiglottitis CKS). */
const STRIDOR = sign(
  "stridor",
  [
    "squeaky whistle",
    "honking",
    "crowing",
    "(?:breathing|breathes?) through a straw",
    "high[- ]pitched \\w+ (?:noise|sound)",
    "whistl\\w* (?:noise |sound )?(?:when|every time) (?:she|he|they) breathes? in",
    "stridor",
    "high[- ]pitched (?:noise|sound|whistle|squeak)",
    "noisy breathing",
    "breathing (?:is )?(?:really |very )?noisy",
  ],
  [
    "鸡叫",
    "尖尖的声音",
    "吸气.{0,8}(?:声音|声|响)",
    "喉咙.{0,6}(?:尖|响|声音)",
    "喉鸣",
    "犬吠",
    "流口水",
    "呼吸.{0,3}(?:有声|很响)",
  ],
);

/** Drooling and sitting forward: a child who cannot swallow their saliva (epiglottitis). */
const DROOLING = sign(
  "drooling",
  ["drooling", "dribbling", "sitting forward", "leaning forward"],
  ["口水流", "流口水"],
);

/** Recession: WHO ETAT's severe respiratory distress in a child. */
const RECESSION = sign(
  "recession",
  [
    "(?:skin )?(?:between|under|below) (?:his|her|the) ribs (?:is |are )?(?:sucking|pulling|sinking|caving) in",
    "(?:skin )?(?:pulling|sucking|sinking|caving) in (?:under|between|below|around) (?:his|her|the)? ?ribs",
    "ribs (?:are )?(?:sucking|pulling|showing)",
    "nostrils flaring",
    "grunting",
  ],
  ["肋骨.{0,10}凹", "肋骨.{0,3}凹", "凹陷.{0,3}肋", "鼻翼扇动", "三凹征"],
);

/**
 * A dental or neck infection spreading under the tongue or into the neck (Ludwig's angina): the airway
 * can close (NICE CKS: dental abscess, admit if swelling spreads to the floor of the mouth or neck).
 */
const DEEP_NECK_SWELLING = sign(
  "swelling under the tongue or into the neck",
  [
    "swelling[^.]{0,30}(?:under (?:my|his|her|the) tongue|(?:into|down|to) (?:my|his|her|the) neck|floor of " +
      "(?:the|my) mouth)",
    "under (?:my|his|her|the) tongue[^.,]{0,20}(?:swollen|swelling|hard)",
    "tongue (?:is )?(?:pushed|lifted|raised) up",
    "(?:can't|can barely|can hardly|barely) open (?:my|his|her) mouth",
  ],
  [
    `(?:下巴底下|颌下|舌下|舌头下面)${zhGap(4)}肿`,
    `舌头${zhGap(4)}(?:顶起|抬起|顶高|被顶)`,
    "肿到脖子",
    "张不开(?:嘴|口)",
    "嘴(?:巴)?张不开",
  ],
);

export const AIRWAY: SituationModel = {
  id: "airway",
  sources: [
    "NHS: When to call 999 (choking, difficulty breathing, blue lips)",
    "Resuscitation Council UK: Adult and paediatric choking algorithms, 2021",
    "NICE CKS: Asthma, acute exacerbation: life-threatening features (cannot complete sentences, cyanosis)",
    "WHO ETAT, 2016: obstructed breathing, severe respiratory distress, central cyanosis",
    "NICE CKS: Croup and epiglottitis: stridor at rest, drooling, recession",
    "NICE CKS: Dental abscess: swelling spreading to the floor of the mouth or the neck, trismus (Ludwig's angina)",
  ],
  combinations: [
    when("breathing", CHOKING, NO_VOICE),
    when("breathing", CHOKING, BREATHING_HARD),
    when("breathing", CHOKING, BLUE),
    when("breathing", CHOKING, THROAT_CLOSING),
    when("breathing", BLUE, BREATHING_HARD),
    when("breathing", BLUE, ASTHMA),
    when("breathing", BLUE, NO_VOICE),
    when("breathing", THROAT_CLOSING, BREATHING_HARD),
    when("breathing", THROAT_CLOSING, NO_VOICE),
    when("breathing", ASTHMA, SEVERE),
    when("breathing", BREATHING_HARD, NO_VOICE),
    when("breathing", DROOLING, STRIDOR),
    when("breathing", STRIDOR, NO_VOICE),
    when("breathing", STRIDOR, THROAT_CLOSING),
    when("breathing", DROOLING, FEVER, BREATHING_HARD),
    when("breathing", STRIDOR, RECESSION),
    when("breathing", STRIDOR, BREATHING_HARD),
    when("breathing", RECESSION, BREATHING_HARD),
    when("breathing", RECESSION, CHILD),
    when("breathing", RECESSION, INFANT),
    when("breathing", DEEP_NECK_SWELLING, BREATHING_HARD),
    when("breathing", DEEP_NECK_SWELLING, THROAT_CLOSING),
  ],
};
