import { BLEEDING_NOW, CANT_KEEP_DOWN, CRAMPING, FOUL_LOCHIA, TRAUMA } from "./obstetric-signs.ts";
import { PRETERM, REGULAR_CONTRACTIONS } from "./preterm.ts";
import { BLEEDING, DIZZY_FAINT, SEIZURE, SHOCK_SIGNS } from "./lexicon.ts";
import { FEVER, NO_URINE, SEPSIS_SIGNS } from "./lexicon-infection.ts";
import { context, sign, when, zhGap, type SituationModel } from "./sign.ts";

const PREGNANT = context(
  "pregnant",
  [
    "pregnan\\w*",
    "preg",
    "[2-4]\\d ?(?:weeks?|wks?)(?: pregnant| along| gestation)?",
    "(?:[4-9]|1\\d) ?(?:weeks?|wks?) (?:pregnant|along|gestation)",
    // A message that opens with the weeks ("12 weeks, bleeding") is telling the gestation.
    "^(?:[4-9]|1\\d) ?(?:weeks?|wks?)(?=[,.:;]| and)",
    "(?:twenty|thirty)[- ]\\w+ weeks",
    "expecting",
    "positive (?:pregnancy )?test",
    "trimester",
    "baby bump",
  ],
  [
    "有了?[一二三四五六七八九]个月",
    "怀起",
    "孕晚期",
    "孕早期",
    "孕中期",
    "怀孕",
    "孕",
    "怀了",
    "验孕",
    "两条杠",
    "预产期",
    "[2-4]\\d ?周",
    "[一二三四五六七八九十]+个月身孕",
  ],
);

const POSTPARTUM = context(
  "after birth",
  [
    "had (?:our|my|the|a) baby (?:last week|yesterday|\\d+ (?:days|weeks) ago)",
    "miscarr\\w*",
    "(?:had|have) (?:a|the|our) baby \\d+ (?:days|weeks) ago",
    "(?:gave|given) birth",
    "just had (?:a|my|the|our) baby",
    "delivered",
    "after (?:the )?(?:birth|delivery|c-?section)",
    "postpartum",
    "post-partum",
    "c-?section",
  ],
  ["流产", "小产", "产后", "生完", "刚生", "产后", "分娩", "剖腹产", "顺产", "月子"],
);

const HEAVY_BLEEDING = sign(
  "heavy bleeding",
  [
    "(?:heavy|heavily|lots of|a lot of|so much|pouring|gushing) (?:bleeding|blood)",
    "bleeding (?:really |very |so )?(?:heavily|a lot|through)",
    "like a tap",
    "pouring (?:out )?blood",
    "(?:soak\\w*|through) (?:a |my |the )?pads?",
    "pad (?:an|every|in an) hour",
    "(?:big|large|huge) clots",
    "clots (?:the size|as big)",
  ],
  [
    "哗哗",
    "血.{0,4}(?:一直流|流个不停)",
    "大出血",
    "大量出血",
    "出血.{0,3}(?:很多|止不住|不止)",
    "流了?很多血",
    "血块",
    "卫生巾.{0,6}湿透",
    "血流不止",
  ],
);

/** Ectopic pregnancy: one-sided pain, shoulder-tip pain, faintness (NICE NG126). */
const ECTOPIC_PAIN = sign(
  "one-sided pain",
  [
    "(?:really |very )?(?:bad|severe|sharp|stabbing) pain (?:low )?(?:on )?one side",
    "pain (?:low )?on one side",
    "shoulder[- ]tip (?:pain)?",
    "shoulder tip hurts",
  ],
  ["一侧.{0,3}(?:剧痛|痛|疼)", "一边.{0,3}(?:剧痛|痛)", "肩膀.{0,3}(?:痛|疼)"],
);

/** Pre-eclampsia: severe headache, visual disturbance, sudden swelling (NICE NG133). */
const PRE_ECLAMPSIA = sign(
  "pre-eclampsia",
  [
    "(?:vision|sight)[^.,]{0,15}(?:sparkly|blurry|blurred|spotty|flashing)",
    "pounding headache",
    "rings won't come off",
    "(?:severe|bad|worst|terrible) headache",
    "headache[^.]{0,30}(?:vision|seeing|flash\\w*|spots)",
    "(?:vision|sight) (?:has gone |is |went )?(?:sparkly|blurry|blurred|spotty|funny)",
    "seeing (?:spots|flashing|flashes|stars|lights)",
    "flashing lights",
    "(?:face|hands) (?:and (?:face|hands|feet) )?(?:are |is )?(?:really |very )?(?:swollen|puffy)",
    "pain (?:under|below) (?:my )?ribs",
    "(?:upper (?:right )?(?:tummy|belly|abdomen|stomach)|epigastric)[^.]{0,15}(?:pain|hurts?|ache)",
  ],
  [
    "头痛.{0,8}(?:眼花|看不清|冒金星|视物模糊|眼矇)",
    "头痛得(?:好|很)?(?:厉害|犀利)",
    "眼前冒金星",
    "视物模糊",
    "看东西.{0,3}(?:闪光|模糊)",
    "闪光",
    "手脚.{0,2}(?:好|很)?肿",
    `(?:上腹|右上腹|心窝)${zhGap(3)}(?:剧痛|好痛|很痛|痛得|疼得|很疼|好疼)`,
    `(?:头痛|头疼|headache)${zhGap(3)}(?:厉害|严重)`,
    "脸.{0,3}肿",
  ],
);

const FETAL_MOVEMENT = sign(
  "no baby movements",
  [
    "(?:baby )?feels quieter",
    "(?:baby )?mov(?:es|ements?) (?:are |is )?(?:way |much |a lot )?less",
    "only (?:\\d|one|two|three) kicks",
    "(?:haven't|hasn't|not|didn't|havent) (?:felt|feel) (?:the |my )?baby (?:move|moving|kick)",
    "baby (?:hasn't|has not|isn't|not|stopped|hasnt) (?:moved|moving|kicking|kicked)",
    "no (?:movements?|kicks)",
    "(?:reduced|fewer|less) movements?",
    "can't feel (?:the |my )?baby",
    "baby (?:is |has been )?(?:very |really )?quiet(?:er)?(?: today| than usual| all day)",
  ],
  [
    "(?:baby|宝宝|bb|胎儿).{0,12}没(?:怎么|什么)?动过?",
    "(?:没|没有|感觉不到|感觉不到了).{0,4}(?:胎动|宝宝动|宝宝在动)",
    "(?:宝宝|胎儿).{0,3}不动了",
    "胎动.{0,4}(?:少|没了|减少|消失|停)",
    "没感觉到胎动",
  ],
);

/** Cord prolapse and meconium-stained waters (RCOG Green-top 50; NICE NG235). */
const LABOUR_RED_FLAG = sign(
  "labour red flag",
  [
    "green and murky",
    "murky",
    "meconium",
    "fluid (?:is )?(?:green|brown|dark)",
    "(?:green|brown) (?:fluid|water)",
    "cord (?:is )?(?:coming|hanging|came) (?:out|down)",
    "see the cord",
    "(?:dark )?green (?:water|waters|fluid)|(?:waters|water)[^.]{0,20}(?:green|brown)",
    "something (?:coming|hanging) out",
  ],
  ["水.{0,4}(?:绿|啡|咖啡|黑)色", "脐带", "羊水.{0,4}(?:绿|黑|浑)", "cord"],
);
const SEVERE_ABDOMINAL_PAIN = sign(
  "severe abdominal pain",
  [
    "(?:belly|tummy|stomach|bump|womb) (?:suddenly )?(?:went |is |feels )?(?:rock )?hard",
    "(?:much|a lot of|so much|lots of) pain",
    "(?:severe|really bad|very bad|terrible|unbearable|excruciating|sharp|stabbing)(?: \\w+){1,2} (?:pain|cramps?)",
    "(?:belly|tummy|stomach|bump) (?:feels |is )?(?:hard|rigid) (?:like a board|as a board|and painful)",
    "(?:severe|really bad|very bad|terrible|unbearable|excruciating|sharp|stabbing|agonising|agonizin" +
      "g) (?:pain|cramps?|cramping)",
    "(?:stomach|tummy|belly|abdominal|abdomen|lower) (?:pain|cramps?) (?:is |are )?(?:unbearable|seve" +
      "re|really bad|so bad)",
    "pain (?:is )?(?:unbearable|so bad i can't)",
    "doubled over",
  ],
  [
    "(?:肚子|腹部|下腹|小腹|肚).{0,10}(?:剧痛|痛得受不了|疼得受不了|绞痛)",
    "肚子.{0,4}硬邦邦",
    "(?:肚子|腹部|下腹|小腹|肚).{0,4}(?:剧痛|痛得受不了|疼得受不了|疼得厉害|痛得厉害|绞痛|痛得不行|疼得不行)",
    "剧烈腹痛",
    "疼得直不起腰",
  ],
);

/** Postpartum psychosis: voices, no sleep, beliefs about the baby, thoughts of harm (NHS; RCPsych). */
const PUERPERAL_PSYCHOSIS = sign(
  "postpartum psychosis",
  [
    "(?:hasn't|has not|haven't) slept (?:in|for) days",
    "baby is (?:the devil|evil|possessed|not (?:ours|real|mine))",
    "hearing voices",
    "(?:hasn't|has not|haven't) slept (?:in|for) days",
    "(?:baby|bub) is(?:n't| not) (?:ours|hers|mine|real)",
    "(?:harm|hurt|kill) (?:the|my|our) baby",
    "(?:thinks|says) (?:someone|people) (?:is|are) (?:trying to|going to) (?:hurt|harm|kill|take)",
  ],
  [
    "听到声音",
    "听到有人(?:说话|跟.{0,2}说话|叫)",
    "几天(?:都)?(?:不睡|没睡)",
    "幻听",
    "好几天没睡",
    "成晚不睡",
    "不是我们的",
    "有人要害",
    "伤害宝宝",
    "害bb",
    "害宝宝",
    "不该活着",
    "(?:一起|一齐)(?:死|走)",
  ],
);

const WATERS = context(
  "waters broken",
  [
    "waters? (?:just )?went",
    "waters? (?:just )?(?:broke|broken|breaking|went)",
    "fluid (?:is )?(?:gushing|pouring)",
    "gush of (?:fluid|water)",
  ],
  ["破了水", "破水", "羊水破", "一股.{0,3}(?:流水|水)", "流水"],
);

export const OBSTETRIC: SituationModel = {
  id: "obstetric",
  sources: [
    "NICE NG126: Ectopic pregnancy and miscarriage (pain, shoulder-tip pain, collapse)",
    "NICE NG133: Hypertension in pregnancy (severe headache, visual disturbance, sudden swelling)",
    "RCOG Green-top Guideline 57: Reduced fetal movements",
    "RCOG Green-top Guideline 50: Umbilical cord prolapse; RCOG Green-top 52: Postpartum haemorrhage",
    "NHS: Bleeding in pregnancy; Pregnancy: when to call 999",
    "NICE NG25: Preterm labour and birth; RCOG Green-top 73: Preterm prelabour rupture of membranes",
    "RCOG Green-top 64b: Bacterial sepsis following pregnancy; Green-top 69: Hyperemesis gravidarum",
  ],
  combinations: [
    when("obstetric", PREGNANT, HEAVY_BLEEDING),
    when("obstetric", POSTPARTUM, HEAVY_BLEEDING),
    when("obstetric", POSTPARTUM, BLEEDING, SHOCK_SIGNS),
    when("obstetric", PREGNANT, ECTOPIC_PAIN),
    when("obstetric", PREGNANT, SEVERE_ABDOMINAL_PAIN),
    when("obstetric", PREGNANT, BLEEDING, SEVERE_ABDOMINAL_PAIN),
    when("obstetric", PREGNANT, SEIZURE),
    when("obstetric", POSTPARTUM, SEIZURE),
    when("obstetric", POSTPARTUM, PUERPERAL_PSYCHOSIS),
    when("obstetric", PREGNANT, PRE_ECLAMPSIA),
    when("obstetric", PREGNANT, FETAL_MOVEMENT),
    when("obstetric", FETAL_MOVEMENT),
    when("obstetric", WATERS, LABOUR_RED_FLAG),
    when("obstetric", LABOUR_RED_FLAG, PREGNANT),
    when("obstetric", PRETERM, WATERS),
    when("obstetric", PRETERM, REGULAR_CONTRACTIONS),
    when("obstetric", PREGNANT, DIZZY_FAINT, SHOCK_SIGNS),
    when("obstetric", POSTPARTUM, FEVER, FOUL_LOCHIA),
    when("obstetric", POSTPARTUM, FEVER, SEPSIS_SIGNS),
    when("obstetric", PREGNANT, TRAUMA, BLEEDING_NOW),
    when("obstetric", PREGNANT, TRAUMA, CRAMPING),
    when("obstetric", PREGNANT, BLEEDING_NOW, REGULAR_CONTRACTIONS),
    when("obstetric", PREGNANT, CANT_KEEP_DOWN, NO_URINE),
    when("obstetric", PREGNANT, CANT_KEEP_DOWN, DIZZY_FAINT),
  ],
};
