import { BACK_PAIN, BLADDER, SADDLE_NUMB } from "./cauda-equina.ts";
import { CONFUSED_DROWSY, CONFUSION, DIABETES, PERSON, SEIZURE, SUDDEN, VOMITING } from "./lexicon.ts";
import { context, negatableContext, sign, when, type SituationModel } from "./sign.ts";

/** BE-FAST: balance, eyes, face, arms, speech, time (NICE NG128; the Chinese 中风120 card). */
const FACE_DROOP = sign(
  "face drooping",
  [
    "(?:mouth|face) (?:is )?(?:bent|slanted)",
    "smile (?:is )?not straight",
    "face (?:has |is |went |gone )?(?:droop\\w*|dropp?\\w*|sagg\\w*|crooked|lopsided|uneven|twisted|fallen|slid\\w*)",
    "(?:droop\\w*|crooked|lopsided|uneven|wonky|twisted) (?:face|smile|mouth)",
    "mouth (?:is )?(?:droop\\w*|crooked|pulled|twisted|hanging)",
    "one side of (?:his|her|my|the) (?:face|mouth) (?:is |has )?(?:droop\\w*|dropped|down|numb|sag\\w" +
      "*|not moving|fallen)",
    "smile (?:is |looks )?(?:crooked|lopsided|uneven|wonky)",
    "face[^.,]{0,12}drooping",
  ],
  [
    "嘴歪",
    "口角.{0,2}歪",
    "脸歪",
    "面瘫",
    "一边脸.{0,4}(?:下垂|麻|动不了|耷拉)",
    "嘴角.{0,3}(?:下垂|歪|耷拉)",
    "口眼歪斜",
    "歪嘴",
  ],
);

const SPEECH = sign(
  "speech",
  [
    "talking nonsense",
    "slurr?\\w*",
    "speech (?:is |was |sounds )?(?:slurred|weird|garbled|funny|off|jumbled|strange)",
    "talk\\w* (?:funny|weird|gibberish|like (?:he's|she's|he is|she is) drunk)",
    "words (?:are |were )?(?:coming out (?:all )?(?:wrong|jumbled|mixed)|all jumbled|jumbled|mixed up)",
    "(?:can't|not able to|unable to) (?:get (?:the|his|her|my) words out|speak properly|find (?:the|h" +
      "is|her|my) words|talk properly|speak)",
    "sounds drunk",
  ],
  [
    "颠三倒四",
    "说话.{0,4}(?:不清|含糊|大舌头|奇怪|乱|说不出)",
    "口齿不清",
    "大舌头",
    "吐字不清",
    "说不出话",
    "讲话.{0,3}(?:不清|怪|含糊)",
    "语无伦次",
    "slurred",
  ],
);

const ONE_SIDE_WEAK = sign(
  "one side weak",
  [
    "(?:keeps )?dropping (?:things|the \\w+|everything|her \\w+|his \\w+)",
    "(?:one|left|right) (?:side|arm|leg|hand)[^.,]{0,20}won't work",
    "(?:can't|cannot) (?:lift|raise|move|feel) the (?:left|right) (?:arm|leg|hand|side)",
    "(?:one|left|right) (?:side|arm|leg|hand)[^.,]{0,20}(?:weak|numb|heavy|dead|floppy|won't move|can" +
      "'t move|not working|limp|drop\\w*)",
    "(?:can't|cannot) (?:lift|raise|move|feel|grip with) (?:his|her|my) (?:left|right|one) (?:arm|leg|hand|side)",
    "(?:arm|leg|hand) (?:suddenly )?(?:went|is|has gone|gone) (?:dead|limp|numb|weak|floppy)",
    "(?:half|one side) of (?:his|her|my) body",
    "(?:left|right) hand (?:is )?not working",
  ],
  [
    "一边.{0,3}(?:手脚|手|脚).{0,3}(?:没劲|没力|无力)",
    "往一边倒",
    "手都没力",
    "(?:手|脚).{0,3}(?:没力|无力)",
    "半边.{0,4}(?:麻|无力|没力气|动不了|没知觉)",
    "一侧.{0,4}(?:麻|无力|动不了)",
    "(?:左|右)(?:边|侧|手|腿|胳膊).{0,4}(?:麻|无力|没力|动不了|抬不起|没知觉|不听使唤)",
    "拿不住东西",
    "偏瘫",
  ],
);

const WORST_HEADACHE = sign(
  "thunderclap headache",
  [
    "worst headache",
    "thunderclap",
    "(?:headache|head pain) (?:like|as if) (?:i|he|she)(?:'ve| was| had)? (?:been )?(?:hit|struck|kicked)",
    "(?:sudden|exploding|exploded|explosive) (?:severe |bad |splitting )?(?:headache|head pain)",
    "head (?:feels like it's|is going to|feels like it will) (?:explode|burst)",
    "worst pain (?:of|in) my life",
  ],
  [
    "这辈子最痛",
    "雷劈",
    "这辈子.{0,6}(?:头痛|头疼|这么痛)",
    "从来没这么痛",
    "最严重的头痛",
    "头.{0,4}(?:像炸|炸开|炸裂|要裂开|被锤)",
    "爆炸样头痛",
    "雷击样头痛",
    "头痛欲裂",
  ],
);

/** Status epilepticus: a seizure over 5 minutes, or one after another without waking (NICE NG217). */
const SEIZURE_LONG = sign(
  "seizure prolonged",
  [
    "then another",
    "another (?:fit|seizure)",
    "(?:never|first) (?:had )?(?:a )?(?:seizures?|fits?) before",
    "first (?:ever )?(?:seizure|fit)",
    "(?:over |more than |for )?(?:[5-9]|[1-9]\\d|five|six|seven|eight|ten|fifteen|twenty) ?(?:min\\w*)",
    "(?:won't|isn't|not|doesn't) stop\\w*",
    "(?:\\d|two|three|four) (?:seizures|fits) in a row",
    "in a row",
    "one after (?:another|the other)",
    "back to back",
    "(?:hasn't|has not|not|never) wok\\w*",
    "won't wake",
    "still not (?:awake|responding)",
    "another one",
  ],
  [
    "又再?抽",
    "第[二三四]次",
    "没醒过",
    "都没醒",
    "(?:[5-9]|[1-9]\\d|五|六|七|八|十)分钟",
    "停不下来",
    "不停",
    "一直在抽",
    "又抽",
    "反复",
    "接二连三",
    "醒不过来",
    "还没醒",
    "叫不醒",
  ],
);

const UNRESPONSIVE = sign(
  "unresponsive",
  [
    "unresponsive",
    "unconscious",
    "(?:won't|can't|cannot|couldn't) (?:wake|rouse)",
    "not waking",
    // Not a skin that is "not responding to the creams": a treatment failing is not a person unresponsive.
    "(?:not|isn't|won't|doesn't) (?:responding|respond)(?! (?:well )?to (?:the |any |my |his |her |these |th" +
      "is )?(?:\\w+ )?" +
      "(?:treatments?|creams?|ointments?|meds|medications?|medicines?|antibiotics?|tablets|pills|therapy|drugs?|" +
      "steroids?|biologics?|lotions?|shampoos?))",
    "no response",
    "out cold",
    "lifeless",
    "not breathing",
    "stopped breathing",
    "(?:on|lying on) the floor and (?:not|won't|isn't)",
  ],
  [
    "叫.{0,3}不应",
    "喊不醒",
    "叫不醒",
    "叫极都不醒",
    "昏迷",
    "没反应",
    "没有反应",
    "不省人事",
    "没有意识",
    "失去意识",
    "没呼吸",
    "不呼吸",
    "没气了",
    "一动不动",
    "倒在地上",
    "醒不过来",
    "叫也没反应",
  ],
);

const HEAD_INJURY = context(
  "head injury",
  [
    "(?:punched|hit|kicked|struck) in the head",
    "(?:rolled|fell|dropped) off",
    "fell from",
    "swelling on (?:the side of )?(?:his|her|the) head",
    "bump on (?:his|her|the) head",
    "(?:hit(?:ting)?|bump(?:ed|ing)|bang(?:ed|ing)|knock(?:ed|ing)|smack(?:ed|ing)|crack(?:ed|ing)) " +
      "(?:his|her|my|their|the back of (?:his|her|my)) head",
    "head (?:injury|trauma|knock|bump)",
    "fell[^.]{0,30}head",
    "concussion",
    "bump on (?:the|his|her|my) head",
  ],
  [
    "(?:滚|摔|跌|掉)下来",
    "头上起了?.{0,3}包",
    "从.{0,8}(?:楼梯|楼上|阳台|窗|床|梳化|沙发).{0,4}(?:摔|跌|掉)",
    "撞到头",
    "磕到头",
    "头.{0,3}(?:撞|磕|摔)",
    "摔.{0,6}头",
    "撞.{0,3}头",
    "脑袋.{0,3}(?:撞|磕)",
    "头部受伤",
    "后脑.{0,3}(?:撞|磕|着地)",
  ],
);

const ANTICOAGULANT = negatableContext(
  "blood thinners",
  [
    "blood thinners?",
    "thinners",
    "warfarin",
    "coumadin",
    "eliquis",
    "apixaban",
    "xarelto",
    "rivaroxaban",
    "pradaxa",
    "dabigatran",
    "edoxaban",
    "clopidogrel",
    "plavix",
    "anticoagul\\w*",
  ],
  ["抗凝", "华法林", "阿哌沙班", "利伐沙班", "达比加群", "氯吡格雷", "波立维", "薄血", "稀释血液"],
);

/** A fall from a height: the mechanism alone is an emergency (NICE NG232). */
const FALL_FROM_HEIGHT = sign(
  "fall from height",
  [
    "fell (?:from|out of|off) (?:a |the )?(?:\\w+[- ](?:floor|storey|story) )?" +
      "(?:window|balcony|roof|ladder|scaffold\\w*|second floor|third floor|top of the stairs)",
    "fell down (?:the|a flight of) stairs",
  ],
  ["从.{0,6}(?:楼上|阳台|窗|楼梯顶|屋顶|梯子).{0,4}(?:摔|跌|掉)", "从.{0,3}楼.{0,3}(?:摔|跌|掉)下"],
);

/** Clear fluid from the nose or ear after a blow: a skull-base fracture (NICE NG232). */
const CSF_LEAK = sign(
  "fluid from nose or ear",
  ["clear (?:watery )?(?:fluid|stuff|liquid)[^.]{0,20}(?:from|out of) (?:his|her|my|the) (?:nose|ears?)"],
  ["(?:鼻子|耳朵).{0,6}(?:流|出).{0,4}(?:清水|透明)"],
);

const VISION_LOSS = sign(
  "sudden vision loss",
  [
    "lost (?:the )?(?:vision|sight)",
    "curtain (?:came |coming |has come )?(?:down|over)",
    "(?:suddenly|sudden|just) [^.]{0,20}(?:can't see|blind|went black|went dark)",
    "can't see out of (?:my|his|her|one) eye",
    "went blind",
  ],
  ["突然.{0,6}(?:看不见|失明|看不清)", "一只眼.{0,4}(?:看不见|失明|黑)", "视力.{0,3}(?:突然|消失|丧失)"],
);

/** BE-FAST's balance and eyes: double vision, the room spinning, walking as if drunk (posterior stroke). */
const BALANCE = sign(
  "balance lost",
  [
    "can't walk (?:straight|properly|in a straight line)",
    "(?:room|world|everything) (?:is )?spinning",
    "losing (?:my|his|her) balance",
    "(?:walking|staggering) like (?:i'm|he's|she's|i am|he is|she is) drunk",
    "keeps? falling to one side",
  ],
  ["走路.{0,3}(?:不稳|歪|打飘)", "天旋地转", "站不稳", "走不了直线"],
);
const DOUBLE_VISION = sign(
  "double vision",
  ["double vision", "seeing double", "(?:vision|sight|eyes) (?:has |have )?(?:went|gone|going|is|are) double"],
  ["重影", "看东西.{0,3}(?:两个|双)", "复视"],
);

export const NEURO: SituationModel = {
  id: "neuro",
  sources: [
    "NICE NG128: Stroke and transient ischaemic attack in over 16s (FAST, BE-FAST)",
    "NICE NG217: Epilepsies: a seizure over 5 minutes or repeated without recovery (status epilepticus)",
    "NICE NG232: Head injury: anticoagulant use, vomiting, drowsiness",
    "NHS: Subarachnoid haemorrhage (sudden, severe 'thunderclap' headache)",
    "NICE CKS: Back pain, red flags for cauda equina syndrome (saddle anaesthesia, bladder dysfunction)",
    "中华医学会急诊医学分会, 急诊预检分诊专家共识, 2018 (意识障碍, 抽搐, 卒中征象)",
  ],
  combinations: [
    when("stroke", FACE_DROOP),
    when("stroke", SPEECH, ONE_SIDE_WEAK),
    when("stroke", SPEECH, SUDDEN),
    when("stroke", SUDDEN, CONFUSION),
    when("stroke", ONE_SIDE_WEAK, SUDDEN),
    when("stroke", WORST_HEADACHE),
    when("stroke", VISION_LOSS),
    when("stroke", SPEECH, BALANCE),
    when("stroke", SPEECH, DOUBLE_VISION),
    when("stroke", DOUBLE_VISION, BALANCE),
    when("neuro", SADDLE_NUMB, BLADDER),
    when("neuro", SADDLE_NUMB, BACK_PAIN),
    when("seizure", SEIZURE, SEIZURE_LONG),
    when("collapse", UNRESPONSIVE, PERSON),
    when("collapse", HEAD_INJURY, ANTICOAGULANT),
    when("collapse", HEAD_INJURY, CSF_LEAK),
    when("collapse", DIABETES, CONFUSION),
    when("collapse", FALL_FROM_HEIGHT, PERSON),
    when("collapse", HEAD_INJURY, VOMITING),
    when("collapse", HEAD_INJURY, CONFUSED_DROWSY),
  ],
};
