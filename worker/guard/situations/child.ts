import { CHILD, INFANT, SUDDEN, VOMITING } from "./lexicon.ts";
import { FEVER } from "./lexicon-infection.ts";
import { context, sign, when, zhGap, type SituationModel } from "./sign.ts";

/** Under three months: any fever of 38 °C or more is a red flag (NICE NG143). */
const UNDER_THREE_MONTHS = context(
  "under three months",
  [
    "(?:[1-9]|1[0-2]|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[- ]?(?:weeks?|wks?)[- ]old",
    "(?:[1-9]|[1-8]\\d|one|two|three|four|five|six|ten) ?days?[- ]old",
    "(?:1|2|one|two)[- ]?months?[- ]old",
    "newborn",
    "new born",
  ],
  [
    "新生儿",
    "刚出生",
    "满月",
    "(?:[1-9]|[1-8]\\d|[一两二三四五六七八九十]|十[一二])(?:天|周|个星期|个礼拜)大",
    "(?:才|刚)?(?:一|两|二|1|2)个(?:多)?月",
    "三个礼拜",
    "三周",
  ],
);

/** NICE NG143 red features and WHO ETAT emergency signs in a young child. */
const RED_FEATURES = sign(
  "red features",
  [
    "not answering me",
    "won't answer me",
    "not responding",
    "no (?:pee|wee)",
    "cries without tears",
    "no tears",
    "(?:very|really) quiet and (?:floppy|not)",
    "floppy",
    "limp",
    "(?:won't|can't|cannot|hard to|barely) (?:wake|rouse)",
    "not waking",
    "no wet (?:nappies|nappy|diapers?)",
    "(?:hasn't|not) had a wet (?:nappy|diaper)",
    "sunken (?:soft spot|fontanelle)",
    "soft spot[^.]{0,20}(?:sunken|bulging)",
    "bulging (?:soft spot|fontanelle)",
    "high[- ]pitched (?:cry|crying|scream)",
    "weak cry",
    "grunting",
    "grey colou?r",
    "(?:gone|going|turned|turning) (?:grey|gray|blue|mottled)",
    "mottled",
    "pauses in (?:his|her) breathing",
    "stopped breathing",
    // Apnoea with a colour change in an infant (NICE NG143; a BRUE with cyanosis is not low risk).
    "stops? breathing",
    "stopping breathing",
    "(?:goes|went|gone|going|turned|turning) (?:\\w+ )?(?:grey|gray|blue|mottled)",
  ],
  [
    "哼哼",
    "灰灰",
    "(?:哭|喊).{0,3}没(?:有)?眼泪",
    "没(?:有)? ?(?:pee|wee)",
    "停止呼吸",
    "呼吸暂停",
    `(?:嘴唇|脸|嘴)${zhGap(4)}(?:变蓝|发蓝|发紫|发青|紫了)`,
    "软软的",
    "软塌塌",
    "哼声",
    "软趴趴",
    "软绵绵",
    "全身软",
    "叫不醒",
    "叫也没反应",
    "没反应",
    "没(?:有)?(?:尿|小便|尿湿)",
    "尿布.{0,3}干",
    "囟门.{0,3}(?:凹|鼓)",
    "哭声.{0,3}(?:弱|尖)",
    "呻吟",
    "发灰",
    "发紫",
  ],
);

/** Three to six months: a fever of 39 °C or more is a red flag (NICE NG143). */
const THREE_TO_SIX_MONTHS = context(
  "three to six months",
  ["(?:3|4|5|6|three|four|five|six)[- ]?months?[- ]old"],
  ["[3-6三四五六]个月大?"],
);
const HIGH_FEVER = sign(
  "fever 39 or more",
  ["(?:temp(?:erature)? (?:of |is )?)?(?:39|40|41)(?:\\.\\d)? ?(?:c|°c|degrees)?"],
  ["(?:39|40|41)(?:\\.\\d)?度"],
);
/** Green vomit in a baby: bowel obstruction until shown otherwise (NICE CKS). */
const GREEN_VOMIT = sign(
  "green vomit",
  ["(?:vomit\\w*|throwing up|being sick|sick)[^.]{0,25}(?:green|bile)", "green (?:vomit|sick)"],
  ["吐.{0,6}绿"],
);

/** Amber features: a red flag in a baby with a fever, not alone. */
const UNWELL = sign(
  "unwell",
  [
    "(?:isn't|not) interested in (?:feeding|feeds|milk)",
    "whimpering",
    "(?:very|really|so) (?:drowsy|sleepy)",
    "drowsy",
    "(?:not|isn't|won't) (?:feeding|drinking)",
    "(?:hasn't|not) (?:drunk|drank|had) anything",
    "(?:won't|refusing|not taking) (?:feeds|the bottle|milk)",
  ],
  ["不吃奶", "不吸", "不喝奶", "没喝水", "一直睡", "精神很差", "没精神", "昏睡"],
);

/** A child writing about a parent who fell, is bleeding or will not wake. */
const PARENT = context(
  "parent",
  ["mummy", "mommy", "mom", "mum", "mama", "daddy", "dad", "papa", "grandma", "granny", "nana", "grandpa"],
  ["妈妈", "爸爸", "奶奶", "爷爷", "外婆", "姥姥", "妈咪"],
);
const DOWN = sign(
  "down and silent",
  [
    "(?:is )?not talking to me",
    "won't wake up",
    "on the floor",
    "fell (?:down|over)",
    "(?:won't|can't|isn't|not) (?:wake|get up|talk|move|answer)",
    "not talking",
    "not moving",
    "sleeping and won't",
    "lots of blood",
  ],
  ["叫.{0,3}不醒", "倒在地上", "摔倒", "叫不醒", "不说话", "不动", "起不来", "流了?很多血"],
);
const FLOOR = sign(
  "on the floor",
  ["fell", "fall(?:en)?", "on the (?:\\w+ )?floor", "fell (?:down|over)", "fell and", "lying on the (?:\\w+ )?ground"],
  ["倒在地上", "摔倒", "跌倒", "倒地", "(?:躺|倒|睡)在.{0,4}地(?:上|板)"],
);

/** Testicular torsion: sudden severe pain in a testicle, often with vomiting, most often at 12 to 18 (NICE CKS). */
const TESTICLE_PAIN = sign(
  "testicle pain",
  [
    "(?:pain|hurts?|ache|aching|swollen|swelling|agony)[^.]{0,25}(?:testic\\w*|testes|balls|scrotum|scrotal)",
    "(?:testic\\w*|testes|balls|scrotum|scrotal)[^.,]{0,20}(?:pain|hurts?|agony|swollen|swelling)",
  ],
  [`(?:蛋蛋|睾丸|阴囊)${zhGap(4)}(?:痛|疼|肿)`],
);

export const CHILD_MODEL: SituationModel = {
  id: "child",
  sources: [
    "NICE NG143: Fever in under 5s: assessment and initial management (traffic-light system)",
    "WHO: Emergency Triage Assessment and Treatment (ETAT), 2016: emergency signs in children",
    "NICE CKS: Diarrhoea and vomiting in children: red-flag dehydration",
    "NHS: Call 999 if a baby or child is floppy, unresponsive, blue or has a seizure",
    "NICE CKS: Scrotal pain and swelling: suspected testicular torsion needs immediate surgical referral",
  ],
  combinations: [
    when("collapse", UNDER_THREE_MONTHS, FEVER),
    when("collapse", THREE_TO_SIX_MONTHS, HIGH_FEVER),
    when("collapse", INFANT, GREEN_VOMIT),
    when("collapse", INFANT, RED_FEATURES),
    when("collapse", INFANT, UNWELL, FEVER),
    when("collapse", CHILD, RED_FEATURES),
    when("collapse", PARENT, FLOOR, DOWN),
    when("child", CHILD, TESTICLE_PAIN, SUDDEN),
    when("child", CHILD, TESTICLE_PAIN, VOMITING),
  ],
};
