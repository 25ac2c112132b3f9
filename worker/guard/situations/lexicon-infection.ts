import { context, sign } from "./sign.ts";

/** Signs of infection and sepsis that more than one situation reads. */

/** A fever is 38 °C or more (NICE NG143): "a slight fever, 37.8" names a figure under it. */
const UNDER_38 =
  "(?![^.。]{0,8}(?<![\\d.])(?:3[0-7](?:\\.\\d)?|9\\d(?:\\.\\d)?|100(?:\\.[0-3])?)" +
  "(?![\\d.]| ?(?:weeks?|wks?|周|岁|years?)))";

export const FEVER = sign(
  "fever",
  [
    "shivering",
    "hot and cold",
    "burning hot then shivering",
    "hot then (?:cold|shivering)",
    `fever\\w*${UNDER_38}`,
    "feverish",
    "high temp\\w*",
    "temp(?:erature)? (?:of |is |was |at )?(?:3[89]|4[0-2]|10[0-6])(?:\\.\\d)?",
    "(?:3[89]|4[0-2])(?:\\.\\d)? ?(?:c|°c|degrees)",
    "(?:is|at|of|hit|reads?|reading|showing) (?:3[89]|4[0-2])\\.\\d",
    "10[1-6](?:\\.\\d)? ?(?:f|°f)",
    "burning up",
    "(?:hot|shivery) and (?:shivery|hot)",
    "shaking chills",
    "rigors",
    "chills",
  ],
  [
    "(?:3[89]|4[0-2])(?:\\.\\d)? ?度",
    "发高烧",
    `发烧${UNDER_38}`,
    `发热${UNDER_38}`,
    "高烧",
    "烧到",
    "体温.{0,3}(?:3[89]|4[0-2])",
    "(?:量了?|测了?|烧到)\\s*(?:3[89]|4[0-2])(?:\\.\\d)?",
    "摸着?(?:好|很)?烫",
    "(?:3[89]|4[0-2])(?:\\.\\d)?度",
    "寒战",
    "打冷颤",
    "烧得",
  ],
);

export const SPREADING_FAST = sign(
  "spreading fast",
  [
    "spread\\w* (?:really |so |very )?(?:fast|quickly|rapidly|quick)",
    "(?:fast|quickly|rapidly)[- ]spreading",
    "(?:getting|growing) (?:bigger|bigger and bigger|larger) (?:by the (?:hour|minute)|fast|quickly|every hour)",
    "spread\\w* (?:up|across|over|past|beyond) (?:my|his|her|the)",
    "past the (?:line|pen|mark)",
    "moving up (?:my|his|her) (?:leg|arm)",
    "red (?:line|streak)s?",
    "by the hour",
  ],
  ["扩散", "蔓延", "越来越大", "迅速扩大", "一下子.{0,4}(?:扩大|大了|变大)", "往上(?:走|蔓延|爬)", "红线"],
);

export const PAIN_OUT_OF_PROPORTION = sign(
  "pain out of proportion",
  [
    "pain is (?:crazy|unreal)",
    "crazy pain",
    "pain (?:is )?(?:way |much |far )?(?:worse|more) than (?:it|what it) looks",
    "(?:unbearable|excruciating|agonizing|agonising|insane|extreme|horrendous) (?:pain|agony)",
    "pain is (?:unbearable|insane|excruciating|off the charts|out of proportion)",
    "out of proportion",
    "(?:pain|hurts?) (?:is )?out of this world",
    "screaming (?:in|with) pain",
    "can't (?:stand|bear) (?:the pain|anyone touching)",
    "agony",
  ],
  [
    "不成比例",
    "痛得受不了",
    "疼得受不了",
    "剧痛",
    "疼得要命",
    "痛得要命",
    "钻心",
    "痛到.{0,3}(?:哭|喊|不行|受不了)",
    "疼到.{0,3}(?:哭|喊|不行)",
    "比看起来.{0,3}(?:严重|痛|疼)",
  ],
);

export const SKIN_INFECTION = context(
  "skin infection",
  [
    "leaking",
    "tattoo",
    "(?:wound|drain|incision|surgical) site",
    "wound",
    "cut",
    "scratch",
    "graze",
    "bite",
    "blister",
    "ingrown",
    "infect\\w*",
    "cellulitis",
    "abscess",
    "boil",
    "redness",
    "red (?:and )?(?:swollen|hot|area|patch)",
    "swollen and (?:red|hot)",
    "incision",
    "stitches",
    "pus",
    "ooz\\w*",
    "ulcers?",
    "splinter",
    "thorn",
    "(?:fish|rose) (?:bone|spine|thorn)",
  ],
  [
    "伤口",
    "红肿",
    "感染",
    "发炎",
    "化脓",
    "流脓",
    "脓",
    "溃烂",
    "溃疡",
    "刀口",
    "抓伤",
    "咬伤",
    "划伤",
    "疔",
    "疖",
    "疮",
    "扎伤",
    "刺伤",
    "被.{0,4}(?:扎|刺)(?:了|伤|到)",
    "红烫",
    "又红又(?:肿|烫)",
    "纹身",
    "埋线",
    "线雕",
  ],
);

/** What a body in sepsis or shock looks like from outside (NICE NG51's high-risk criteria in plain words). */
export const SEPSIS_SIGNS = sign(
  "sepsis signs",
  [
    "nearly (?:fainted|passed out)",
    "faint",
    "breathless",
    "muddled",
    "(?:bp|blood pressure)[^.]{0,20}(?<!\\d)[4-8]\\d ?/ ?\\d{2}(?!\\d)",
    "confused(?! (?:about|by|why|whether|as to|if|with|what|how|which|on))|confusion",
    "delirious",
    "not making sense",
    "talking (?:nonsense|rubbish|gibberish)",
    "mumbling",
    "shaking (?:all over|uncontrollably|violently)",
    "(?:racing|pounding) heart",
    "heart(?:'s| is)? (?:racing|pounding)",
    // NICE NG51: a heart rate of 130 or more is high risk, over 90 moderate; a visitor types the figure.
    "(?:heart ?rate|pulse|heart|hr)[^.,]{0,10}(?<!\\d)(?:1[2-9]\\d|2\\d\\d)(?!\\d)",
    "breathing (?:really |very |so )?(?:fast|quickly|rapidly)",
    "(?:hands|feet|hands and feet) (?:are |feel )?(?:ice[- ]?cold|freezing|icy|cold)",
    "mottled",
    "blotchy (?:and|skin)",
    "cold (?:and )?clammy",
    "clammy",
    "cold hands and feet",
    "(?:hands|feet) (?:are )?(?:ice )?cold",
    "very (?:drowsy|sleepy)",
    "lethargic",
    "floppy",
    "barely (?:awake|responsive|conscious)",
    "(?:hasn't|has not|haven't|not) (?:peed|wee'd|weed|urinated)",
    "pass(?:ing)? out",
    "going to (?:pass out|faint)",
    "feel(?:s)? like (?:i'm|he's|she's|i am) (?:dying|going to die)",
  ],
  [
    "寒战",
    "血压(?:低|很低|好低)",
    "血压.{0,6}(?<!\\d)[4-8]\\d/\\d{2}",
    "混乱",
    "神志不清",
    "糊涂",
    "糊里糊涂",
    "说胡话",
    "胡言乱语",
    "迷糊",
    "意识模糊",
    "叫不醒",
    "叫不太醒",
    "难叫醒",
    "昏睡",
    "嗜睡",
    "心跳(?:很快|加速|好快)",
    "(?:心跳|心率|heart ?rate|pulse).{0,3}(?:一百[一二三四五六七八九]|1[1-9]\\d|好快|很快|fast|high)",
    "呼吸(?:很快|急促|好快|好急|很急)",
    "软绵绵",
    "蔫",
    "发抖",
    "浑身发冷",
    "手脚(?:冰冷|冰凉|发凉)",
    "花斑",
    "没尿",
    "尿很少",
    "要晕",
    "快晕",
    "没精神",
    "精神很差",
  ],
);

export const RASH = context(
  "rash",
  [
    "welts",
    "rash\\w*",
    "spots",
    "dots",
    "blotch\\w*",
    "bruis\\w*",
    "marks",
    "pinpricks?",
    "petechiae",
    "purpura",
    // Target lesions: the rings of erythema multiforme and SJS (BAD).
    "targets?",
    "bull'?s[- ]?eyes?",
  ],
  ["疹", "斑", "红点", "出血点", "紫点", "瘀点", "小点", "紫红色的点", "靶", "红圈"],
);

/** Skin mottled or blotchy purple: a high-risk sign of sepsis (NICE NG51). */
export const MOTTLED = sign(
  "mottled skin",
  ["mottled", "blotchy (?:and )?purple", "purple (?:and )?blotchy", "(?:purple|blue) blotch\\w*", "marbled"],
  ["花斑", "紫色花纹", "花纹", "发花"],
);

/** No urine for many hours: NICE NG51's high-risk sign. */
export const NO_URINE = sign(
  "no urine",
  [
    "(?:hasn't|has not|haven't|not) (?:had a wee|had a pee|peed|wee'd|weed|urinated|passed urine|been" +
      " to the loo for a wee)",
    "no (?:pee|wee|urine)",
  ],
  ["没(?:有)?小便", "没(?:有)?尿", "不尿", "无尿"],
);

/** The tumbler test (NICE NG240): a rash that does not fade under a pressed glass. */
export const NON_BLANCHING = sign(
  "non-blanching",
  [
    "(?:like|look like|looks like) (?:a )?bruises?",
    "(?:looks?|looking) like (?:bruises|bruising|blood spots)",
    "purple blotch\\w*",
    "(?:dark )?purple [a-z]+ ?(?:rash|spots|blotches|marks)",
    "(?:doesn't|don't|didn't|won't|not|does not|do not|did not|isn't|aren't|wont|dont) (?:fade|go awa" +
      "y|disappear|blanch|go white|go pale|change)[^.]{0,40}(?:press|glass|push|tumbler)",
    "(?:glass|tumbler) test",
    "non[- ]?blanching",
    "(?:under|through) (?:a|the) glass",
    "petechiae",
    "purpura",
    "purple (?:spots|dots|rash|pinpricks)",
    "pinprick (?:spots|rash|dots)",
  ],
  [
    "乌青.{0,4}(?:斑|点)",
    "瘀青.{0,4}(?:斑|点)",
    "(?:压|按).{0,6}不(?:会)?(?:褪|退|消)",
    "紫色.{0,2}点",
    "紫红色.{0,2}(?:斑点|点)",
    "(?:压|按).{0,6}(?:不褪|不消|不变白|不会褪|也不褪)",
    "不褪色",
    "玻璃杯",
    "瘀点",
    "出血点",
    "紫红色的点",
    "紫色的点",
    "紫点",
  ],
);

export const STIFF_NECK = sign(
  "stiff neck",
  [
    "stiff neck",
    "neck (?:is |so |really )?(?:stiff|rigid)",
    "can't (?:bend|move|touch) (?:his|her|my) (?:neck|chin)",
    "light (?:hurts|is hurting)",
    "can't (?:stand|look at) (?:the )?light",
    "hurts to look at (?:the )?light",
  ],
  ["脖子.{0,4}(?:硬|僵)", "颈.{0,3}(?:硬|僵)", "低不了头", "怕光", "畏光"],
);
