import { DIZZY_FAINT, SHOCK_SIGNS } from "./lexicon.ts";
import { context, sign, when, type SituationModel } from "./sign.ts";

const PREGNANT = context(
  "pregnant",
  [
    "pregnan\\w*",
    "[2-4]\\d ?(?:weeks?|wks?)(?: pregnant| along| gestation)?",
    "(?:twenty|thirty)[- ]\\w+ weeks",
    "expecting",
    "positive (?:pregnancy )?test",
    "trimester",
    "baby bump",
  ],
  ["怀孕", "孕", "怀了", "验孕", "两条杠", "预产期", "[2-4]\\d周", "[一二三四五六七八九十]+个月身孕"],
);

const POSTPARTUM = context(
  "after birth",
  [
    "(?:gave|given) birth",
    "just had (?:a|my|the|our) baby",
    "delivered",
    "after (?:the )?(?:birth|delivery|c-?section)",
    "postpartum",
    "post-partum",
    "c-?section",
  ],
  ["生完", "刚生", "产后", "分娩", "剖腹产", "顺产", "月子"],
);

const HEAVY_BLEEDING = sign(
  "heavy bleeding",
  [
    "(?:heavy|heavily|lots of|a lot of|so much|pouring|gushing) (?:bleeding|blood)",
    "bleeding (?:heavily|a lot|through)",
    "pouring (?:out )?blood",
    "(?:soak\\w*|through) (?:a |my |the )?pads?",
    "pad (?:an|every|in an) hour",
    "(?:big|large|huge) clots",
    "clots (?:the size|as big)",
  ],
  ["大出血", "大量出血", "出血.{0,3}(?:很多|止不住|不止)", "流了?很多血", "血块", "卫生巾.{0,6}湿透", "血流不止"],
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
    "(?:severe|bad|worst|terrible) headache",
    "headache[^.]{0,30}(?:vision|seeing|flash\\w*|spots)",
    "(?:vision|sight) (?:has gone |is |went )?(?:sparkly|blurry|blurred|spotty|funny)",
    "seeing (?:spots|flashing|flashes|stars|lights)",
    "flashing lights",
    "(?:face|hands) (?:and (?:face|hands|feet) )?(?:are |is )?(?:really |very )?(?:swollen|puffy)",
    "pain (?:under|below) (?:my )?ribs",
  ],
  [
    "头痛.{0,8}(?:眼花|看不清|冒金星|视物模糊|眼矇)",
    "头痛得(?:好|很)?(?:厉害|犀利)",
    "眼前冒金星",
    "视物模糊",
    "看东西.{0,3}(?:闪光|模糊)",
    "闪光",
    "手脚.{0,2}(?:好|很)?肿",
    "脸.{0,3}肿",
  ],
);

const FETAL_MOVEMENT = sign(
  "no baby movements",
  [
    "(?:haven't|hasn't|not|didn't|havent) (?:felt|feel) (?:the |my )?baby (?:move|moving|kick)",
    "baby (?:hasn't|has not|isn't|not|stopped|hasnt) (?:moved|moving|kicking|kicked)",
    "no (?:movements?|kicks)",
    "(?:reduced|fewer|less) movements?",
  ],
  [
    "(?:没|没有|感觉不到|感觉不到了).{0,4}(?:胎动|宝宝动|宝宝在动)",
    "胎动.{0,4}(?:少|没了|减少|消失|停)",
    "没感觉到胎动",
  ],
);

/** Cord prolapse and meconium-stained waters (RCOG Green-top 50; NICE NG235). */
const LABOUR_RED_FLAG = sign(
  "labour red flag",
  [
    "cord (?:is )?(?:coming|hanging|came) (?:out|down)",
    "see the cord",
    "(?:dark )?green (?:water|waters|fluid)|(?:waters|water)[^.]{0,20}(?:green|brown)",
    "something (?:coming|hanging) out",
  ],
  ["脐带", "羊水.{0,4}(?:绿|黑|浑)", "cord"],
);
const WATERS = context("waters broken", ["waters? (?:just )?(?:broke|broken|breaking|went)"], ["破水", "羊水破"]);

export const OBSTETRIC: SituationModel = {
  id: "obstetric",
  sources: [
    "NICE NG126: Ectopic pregnancy and miscarriage (pain, shoulder-tip pain, collapse)",
    "NICE NG133: Hypertension in pregnancy (severe headache, visual disturbance, sudden swelling)",
    "RCOG Green-top Guideline 57: Reduced fetal movements",
    "RCOG Green-top Guideline 50: Umbilical cord prolapse; RCOG Green-top 52: Postpartum haemorrhage",
    "NHS: Bleeding in pregnancy; Pregnancy: when to call 999",
  ],
  combinations: [
    when("obstetric", PREGNANT, HEAVY_BLEEDING),
    when("obstetric", POSTPARTUM, HEAVY_BLEEDING),
    when("obstetric", PREGNANT, ECTOPIC_PAIN),
    when("obstetric", PREGNANT, PRE_ECLAMPSIA),
    when("obstetric", PREGNANT, FETAL_MOVEMENT),
    when("obstetric", FETAL_MOVEMENT),
    when("obstetric", WATERS, LABOUR_RED_FLAG),
    when("obstetric", LABOUR_RED_FLAG, PREGNANT),
    when("obstetric", PREGNANT, DIZZY_FAINT, SHOCK_SIGNS),
  ],
};
