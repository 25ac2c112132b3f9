import { context, sign } from "./sign.ts";

/** Signs more than one situation reads. Each is a concept, with the ways visitors write it. */

export const VOMITING = sign(
  "vomiting",
  ["vomit\\w*", "throwing up", "threw up", "being sick", "puk\\w*", "retching"],
  ["呕了", "呕", "呕吐", "吐了", "一直吐", "想吐", "上吐下泻", "吐"],
);

export const DIZZY_FAINT = sign(
  "faint",
  [
    "nearly fainted",
    "dizzy",
    "faint\\w*",
    "light ?headed",
    "pass(?:ing|ed)? out",
    "going to pass out",
    "nearly passed out",
    "collaps\\w*",
    "can't stand up",
    "blacking out",
  ],
  ["倒地", "晕过去", "头晕", "晕倒", "要晕", "快晕", "差点晕", "晕", "昏倒", "眼前发黑", "站不稳", "站不住"],
);

export const SHOCK_SIGNS = sign(
  "shock",
  [
    "(?:grey|gray|pale)[^.]{0,12}(?:sweaty|clammy)",
    "cold and sweaty",
    "(?:bp|blood pressure)[^.]{0,20}(?<!\\d)[4-8]\\d ?/ ?\\d{2}(?!\\d)",
    "pale (?:and|,) (?:cold|clammy|sweaty|grey|gray)",
    "cold (?:and )?clammy",
    "clammy",
    "cold sweat",
    "grey and sweaty",
    "(?:looks?|looking|gone|going|went|turned|turning) (?:\\w+ )?(?:grey|gray|ashen)",
    "white as a sheet",
    "(?:racing|weak|thready) (?:heart|pulse)",
    "heart (?:is )?racing",
    "feel(?:s|ing)? faint",
    "going to pass out",
    "about to pass out",
    "nearly passed out",
  ],
  [
    "煞白",
    "面青",
    "脸色(?:很差|好差|发青|发灰|难看)",
    "满头大汗",
    "血压(?:低|很低|好低)",
    "冷汗",
    "脸色(?:苍白|发白|很白)",
    "苍白",
    "心跳(?:很快|加速)",
    "心慌",
    "要晕",
    "快晕",
    "发冷",
  ],
);

export const CONFUSED_DROWSY = sign(
  "confused or drowsy",
  [
    "staggering",
    "talking gibberish",
    "gibberish",
    "(?:keeps )?asking the same (?:questions?|thing)",
    "babbling",
    "muddled",
    "confused(?! (?:about|by|why|whether|as to|if|with|what|how|which|on))|confusion",
    "disoriented",
    "not making sense",
    "talking (?:nonsense|rubbish|gibberish)",
    "mumbling",
    "drowsy",
    "(?:really|very|so) sleepy",
    "hard to wake",
    "can barely wake",
    "can't (?:stay awake|wake)",
    "out of it",
    "stumbling",
    "slurring",
  ],
  [
    "前言不搭后语",
    "语无伦次",
    "乱讲话?",
    "犯困",
    "喊不醒",
    "乱说话",
    "难叫醒",
    "叫不太醒",
    "想睡",
    "混乱",
    "神志不清",
    "糊涂",
    "迷糊",
    "意识模糊",
    "说胡话",
    "乱讲",
    "胡言乱语",
    "嗜睡",
    "昏睡",
    "困",
    "叫不醒",
    "反应(?:很慢|迟钝)",
    "站不稳",
  ],
);

export const BREATHING_HARD = sign(
  "hard to breathe",
  [
    "dragging air",
    "breathing like a fish",
    "can (?:hardly|barely) get air in",
    "barely breathing",
    "gasping",
    "breathing sounds (?:noisy|weird|funny|wheezy|rattly)",
    "breathing (?:is )?getting (?:harder|worse|difficult)",
    "breathing slow(?:ly)?",
    "(?:slow|shallow) breathing",
    "can't breathe",
    "can't (?:catch|get) (?:my|his|her|a) breath",
    "hard to breathe",
    "(?:difficulty|trouble|struggling|struggle) (?:breathing|to breathe)",
    "short of breath",
    "breathless",
    "gasping",
    "wheez\\w*",
    "breathing (?:is )?(?:really |very |so )?(?:hard|fast|noisy|weird|laboured|labored|difficult)",
    "breathing (?:\\w+ )?feels? (?:\\w+ )?(?:hard|difficult|tight|laboured|labored)",
    "grunting",
  ],
  [
    "出气.{0,6}(?:抽|难|急)",
    "喘气.{0,4}(?:粗|响|急)",
    "扯气",
    "嘶嘶",
    "呼吸(?:很慢|变慢)",
    "喘不(?:上|过)气",
    "上不来气",
    "透不(?:过|到)气",
    "(?:呼吸|breathe|breathing).{0,4}(?:困难|急促|难受|好急|很急|辛苦|难|不顺|不畅)",
    "憋气",
    "喘",
  ],
);

/** Someone: an unresponsive app is not an emergency, an unresponsive father is. */
export const PERSON = context(
  "person",
  [
    "i|i'm|me|my|he|he's|she|she's|him|her|they|them|their|we|our|someone|somebody|mum|mom|mummy|mommy|dad|daddy",
    "husband|wife|partner|son|daughter|baby|child|kid|friend|brother|sister|grandma|grandpa|nan|grann" +
      "y|grandad|neighbou?r",
    "father|mother|man|woman|guy|boy|girl|colleague|patient",
  ],
  ["我", "他", "她", "妈", "爸", "孩子", "宝宝", "老公", "老婆", "朋友", "奶奶", "爷爷", "外婆", "外公", "有人", "人"],
);

/** A baby or an infant: the age where fever, floppiness and poor feeding are red flags by themselves. */
export const INFANT = context(
  "infant",
  [
    "(?:son|daughter|baby|boy|girl),? \\d+ ?months?(?! ago| pregnant)",
    "baby",
    "babies",
    "newborn",
    "new born",
    "infant",
    "bub",
    "(?:\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[- ]?(?:day|week|wk|month|mo)s?[- ]old",
    "little one",
  ],
  ["宝宝", "婴儿", "新生儿", "bb", "\\d+个月", "[一两二三四五六七八九十]+个月", "满月", "刚出生", "小婴儿"],
);

export const CHILD = context(
  "child",
  [
    "child",
    "children",
    "kid",
    "kids",
    "toddler",
    "son",
    "daughter",
    "boy",
    "girl",
    "grandson",
    "granddaughter",
    "wee one",
    "bairn",
    "wean",
    "nephew",
    "niece",
    "\\d+ ?(?:yo|y/o|yr old|year old)",
    "(?:one|two|three|four|five|six|seven|eight|nine|ten)[- ]year[- ]old",
    "\\d+ ?(?:month|mo)s? old",
  ],
  ["孩子", "小孩", "儿子", "女儿", "宝宝", "娃", "孙子", "孙女", "外孙", "小朋友", "阿仔", "个仔", "个女", "\\d+岁"],
);

/** New confusion: a red flag in sepsis, stroke and heat illness. Not "confused about" a bill. */
export const CONFUSION = sign(
  "confusion",
  [
    "mumbling",
    "not (?:been )?(?:himself|herself)",
    "not answering properly",
    "(?:keeps )?asking the same (?:questions?|thing)",
    "talking gibberish",
    "gibberish",
    "muddled",
    "babbling",
    "not herself",
    "not himself",
    "confused(?! (?:about|by|why|whether|as to|if|with|what|how|which|on))",
    "confusion",
    "disoriented",
    "delirious",
    "can't think straight",
    "not making (?:any )?sense",
    "talking (?:nonsense|rubbish|gibberish)",
    "doesn't (?:know|recognise|recognize) (?:where|who|me)",
  ],
  [
    "乱讲话?",
    "乱说话?",
    "乱说话",
    "混乱",
    "颠三倒四",
    "前言不搭后语",
    "语无伦次",
    "不认识人",
    "神志不清",
    "糊涂",
    "说胡话",
    "胡言乱语",
    "乱讲",
    "意识模糊",
    "意识不清",
    "认不出",
    "不认识人",
    "答非所问",
  ],
);

export const BLEEDING = context(
  "bleeding",
  ["bleed\\w*", "blood", "bled", "nosebleed", "haemorrhag\\w*", "hemorrhag\\w*"],
  ["见红", "出血", "流血", "血"],
);

export const SEIZURE = sign(
  "seizure",
  [
    "had (?:a|another) fit",
    "seiz\\w*",
    "fitting",
    "having (?:a|another) fit",
    "fits",
    "convuls\\w*",
    "shaking (?:all over|uncontrollably) and (?:jerking|not)",
    "jerking",
    "eyes rolled",
  ],
  [
    "抽搐",
    "抽风",
    "癫痫",
    "羊角风",
    "口吐白沫",
    "翻白眼",
    "抽筋.{0,3}(?:全身|停不)",
    // A child "抽筋" is a fit in Cantonese and Taiwanese usage; an adult's calf cramp is not.
    "(?:宝宝|孩子|bb|小孩|仔|女)(?:一直|全身)?抽筋",
  ],
);

export const FAINTING = sign(
  "fainting",
  [
    "unconscious",
    "(?:won't|can't) wake",
    "pass(?:ed|ing)? out",
    "fainted",
    "blacking out",
    "blacked out",
    "(?:going to|about to) (?:pass out|faint)",
    "collapsed",
  ],
  ["喊不醒", "叫不醒", "要晕过去", "晕过去", "眼前发黑", "晕倒", "昏倒"],
);

/** Low blood sugar in someone on insulin or diabetic: confusion is the emergency sign. */
export const DIABETES = context(
  "diabetes",
  [
    "sugar patient",
    "diabet\\w*",
    "insulin",
    "(?:has|have|got) sugar",
    "blood sugar",
    "hypo",
    "t[12]d",
    "(?:is|he's|she's|i'm|am|i am|he is|she is|they're) (?:a )?type ?(?:1|one|2|two)",
  ],
  ["糖尿", "糖尿病", "胰岛素", "血糖", "低血糖", "[12一二]型糖"],
);

/** Came on suddenly, or only minutes or hours ago: what makes stroke signs and testicular pain an emergency. */
export const SUDDEN = context(
  "sudden",
  [
    "started (?:\\d+|ten|twenty|thirty) min\\w* ago",
    "(?:\\d+|ten|twenty|thirty|an?) (?:min\\w*|hours?) ago",
    "since (?:one|an?|1) hour",
    "sudden\\w*",
    "all of a sudden",
    "out of nowhere",
    "just now",
    "since (?:this )?morning",
    "just happened",
    "came on",
  ],
  ["突然", "忽然", "刚才", "刚刚", "一下子", "今天早上", "刚发生"],
);
