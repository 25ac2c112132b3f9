import { CHILD, DIZZY_FAINT, CONFUSED_DROWSY, CONFUSION, DIABETES, INFANT, VOMITING } from "./lexicon.ts";
import {
  FEVER,
  MOTTLED,
  NON_BLANCHING,
  NO_URINE,
  PAIN_OUT_OF_PROPORTION,
  RASH,
  SEPSIS_SIGNS,
  SKIN_INFECTION,
  SPREADING_FAST,
  STIFF_NECK,
} from "./lexicon-infection.ts";
import { context, sign, when, type SituationModel } from "./sign.ts";

const INFECTION = context(
  "infection",
  [
    "(?:wound|drain|incision|surgical) site",
    "leaking",
    "tattoo",
    "abscess",
    "after (?:my|the|his|her) (?:operation|surgery|op)",
    "infect\\w*",
    "pneumonia",
    "uti",
    "kidney infection",
    "chest infection",
    "cellulitis",
    "wound",
    "pus",
    "ooz\\w*",
  ],
  ["手术后", "刀口", "感染", "肺炎", "发炎", "伤口", "化脓", "流脓", "尿路感染", "肾盂肾炎"],
);

const DIABETIC_FOOT = context(
  "diabetic foot",
  ["diabet\\w*[^.]{0,20}(?:foot|feet|toe|leg|ulcer|wound)", "(?:foot|toe) ulcer"],
  ["糖尿.{0,6}(?:脚|足|脚趾|腿)", "糖尿病足"],
);

/** Skin dying over an infection: black, foul, or dusky purple and hard (NHS: necrotising fasciitis). */
const NECROSIS = sign(
  "tissue dying",
  [
    "(?:gone|going|turned|turning) black",
    "black and (?:smelly|smells)",
    "smell\\w*",
    "stink\\w*",
    "rott\\w*",
    "foul",
    "(?:hard|swollen) and (?:purple|dusky)",
    "(?:skin|it|patch|area) (?:looks|is|has gone|went|turned|turning) (?:\\w+ )?(?:purple|dusky)",
    "(?:dark )?(?:purplish|purple|dusky) (?:patch|area|skin)",
  ],
  ["发黑", "变黑", "发臭", "臭味", "有臭", "腐烂", "发紫", "紫黑", "又硬又紫"],
);

/** Crackling under the skin (crepitus): gas in the tissue of a necrotising infection (NHS; Fournier's gangrene). */
const CREPITUS = sign(
  "crackling under the skin",
  [
    "crackl\\w*[^.]{0,20}(?:press|touch|under (?:the )?skin)",
    "(?:skin|it) (?:feels? )?crackl\\w*",
    "crunch\\w* (?:under|when)",
    "bubbl\\w* under (?:the )?skin",
    "(?:air|gas) (?:under|in) (?:the )?skin",
    "like bubble ?wrap",
  ],
  ["咯吱", "捻发", "像有气泡", "皮下.{0,3}气", "噼啪"],
);

/** Chemotherapy in the last weeks: a fever is neutropenic sepsis until shown otherwise (NICE NG151). */
const CHEMOTHERAPY = sign(
  "on chemotherapy",
  [
    // Years ago is history; weeks ago is still the window of neutropenia.
    "chemo\\w*(?![^.,]{0,25}(?:years? (?:ago|back)|in remission|long time ago))",
    "neutropeni\\w*",
    "low (?:white (?:blood )?cell|neutrophil) count",
  ],
  ["化疗", "中性粒细胞.{0,3}低", "白细胞.{0,3}低"],
);

/** Early meningococcal disease: cold hands and feet and aching legs with a fever (Thompson et al., Lancet 2006). */
const COLD_PERIPHERIES = sign(
  "cold hands and feet",
  ["(?:hands|feet|hands and feet) (?:are |feel )?(?:ice[- ]?cold|freezing|icy|cold)", "cold hands and feet"],
  ["手脚(?:冰冷|冰凉|发凉)"],
);
const LEG_PAIN = sign(
  "aching legs",
  ["legs? (?:ache|aching|hurt\\w*|pain)", "(?:can't|won't) (?:stand|walk|get up)"],
  ["腿.{0,2}(?:痛|疼|酸)", "站不起来", "走不了路"],
);
/** New confusion with a fever: NHS says call 999 (sepsis, meningitis); a grumpy child is not this. */
const ALTERED_MIND = sign(
  "new confusion",
  [
    "confused(?! (?:about|by|why|whether|as to|if|with|what|how|which|on))",
    "not making (?:any )?sense",
    "talking (?:nonsense|rubbish|gibberish)",
    "gibberish",
    "delirious",
    "disoriented",
    "doesn't (?:know|recognise|recognize) (?:where|who|me)",
  ],
  ["说胡话", "胡言乱语", "神志不清", "意识模糊", "不认识人", "糊涂", "前言不搭后语", "语无伦次"],
);

/** Toxic shock syndrome: a tampon left in, a high fever, a sunburn-like rash, faintness (NHS). */
const TAMPON = context("tampon", ["tampons?", "menstrual cup"], ["棉条", "月经杯"]);
const SUNBURN_RASH = sign(
  "sunburn-like rash",
  ["(?:like|looks like) (?:a )?sunburn", "sunburn[- ]like", "red all over"],
  ["像晒伤", "全身.{0,3}发红"],
);

/** Eczema herpeticum: eczema turning into punched-out blisters or sores, often with fever (BAD leaflet). */
const ECZEMA = context("eczema", ["eczema", "atopic"], ["湿疹", "特应性皮炎"]);
const PUNCHED_OUT = sign(
  "punched-out blisters",
  [
    "crusting",
    "punched[- ]out",
    "(?:little|tiny|small) (?:blisters|sores|holes|craters)",
    "clusters? of (?:blisters|sores)",
    "blisters (?:all over|everywhere|spreading)",
    "weeping (?:sores|blisters)",
    "crusted (?:sores|blisters)",
  ],
  [
    "(?:好多|很多|一堆).{0,2}(?:水泡|水疱)",
    "凹陷.{0,4}(?:水泡|水疱|小泡)",
    "一(?:颗颗|粒粒|个个).{0,6}(?:水泡|水疱)",
    "起晒.{0,3}(?:水泡|水疱)",
    "小水泡",
    "小水疱",
    "成片.{0,3}(?:水泡|水疱)",
    "小坑",
  ],
);

/** Staphylococcal scalded skin in a baby: red skin that wrinkles and peels at a touch. */
const SCALDED_SKIN = sign(
  "scalded-looking skin",
  [
    "peel\\w* (?:off )?in (?:sheets|layers)",
    "skin (?:is )?(?:coming|peeling|falling|sliding) off",
    "(?:looks|look|like) (?:a )?(?:burn|burns|burned|burnt|scald\\w*)",
    "wrinkl\\w* and peel\\w*",
    "peels? when (?:i|you) touch",
  ],
  ["一碰就(?:脱皮|掉皮|破)", "像烫伤", "像被烫", "脱皮", "表皮脱落", "大片.{0,3}(?:脱落|脱皮)"],
);

export const SEPSIS: SituationModel = {
  id: "sepsis",
  sources: [
    "NICE NG51: Suspected sepsis: recognition, diagnosis and early management (high-risk criteria)",
    "NICE NG240: Bacterial meningitis and meningococcal disease (non-blanching rash, stiff neck, photophobia)",
    "NICE NG143: Fever in under 5s (traffic-light red features)",
    "NHS: Necrotising fasciitis (pain out of proportion, rapid spread); NICE NG19: Diabetic foot problems",
    "British Association of Dermatologists: Eczema herpeticum; Staphylococcal scalded skin syndrome p" +
      "atient information",
    "NICE NG151: Neutropenic sepsis (fever of 38 °C or more during chemotherapy)",
    "Thompson M. et al., Clinical recognition of meningococcal disease in children, Lancet 2006 (cold hands " +
      "and feet, leg pain)",
    "NHS: Toxic shock syndrome (tampon, high temperature, sunburn-like rash, dizziness)",
  ],
  combinations: [
    when("sepsis", NON_BLANCHING, FEVER),
    when("sepsis", NON_BLANCHING, SEPSIS_SIGNS),
    when("sepsis", NON_BLANCHING, RASH, CHILD),
    when("sepsis", FEVER, STIFF_NECK),
    when("sepsis", SKIN_INFECTION, SPREADING_FAST, FEVER),
    when("sepsis", SKIN_INFECTION, SPREADING_FAST, PAIN_OUT_OF_PROPORTION),
    when("sepsis", SKIN_INFECTION, PAIN_OUT_OF_PROPORTION, FEVER),
    when("sepsis", DIABETIC_FOOT, NECROSIS),
    when("sepsis", DIABETES, SKIN_INFECTION, NECROSIS),
    when("sepsis", SKIN_INFECTION, NECROSIS, FEVER),
    when("sepsis", SKIN_INFECTION, NECROSIS, SEPSIS_SIGNS),
    when("sepsis", SKIN_INFECTION, NO_URINE),
    when("sepsis", INFECTION, NO_URINE),
    when("sepsis", DIABETIC_FOOT, FEVER, CONFUSED_DROWSY),
    when("sepsis", INFECTION, SEPSIS_SIGNS, FEVER),
    when("sepsis", INFECTION, CONFUSION),
    when("sepsis", FEVER, SEPSIS_SIGNS, SKIN_INFECTION),
    when("sepsis", ECZEMA, PUNCHED_OUT),
    when("sepsis", CONFUSION, MOTTLED),
    when("sepsis", MOTTLED, NO_URINE),
    when("sepsis", CONFUSION, NO_URINE),
    when("sepsis", MOTTLED, FEVER),
    when("sepsis", NON_BLANCHING, CHILD),
    when("sepsis", NON_BLANCHING, INFANT),
    when("sepsis", INFECTION, FEVER, SEPSIS_SIGNS),
    when("sepsis", INFANT, SCALDED_SKIN),
    when("sepsis", CHILD, SCALDED_SKIN, FEVER),
    when("sepsis", CREPITUS, FEVER),
    when("sepsis", CREPITUS, DIABETES),
    when("sepsis", CREPITUS, PAIN_OUT_OF_PROPORTION),
    when("sepsis", SKIN_INFECTION, PAIN_OUT_OF_PROPORTION, SEPSIS_SIGNS),
    when("sepsis", SKIN_INFECTION, SPREADING_FAST, SEPSIS_SIGNS),
    // NICE NG51: an infection with high-risk signs is sepsis whether or not there is a fever.
    when("sepsis", INFECTION, SEPSIS_SIGNS, SEPSIS_SIGNS),
    when("sepsis", CHEMOTHERAPY, FEVER),
    when("sepsis", TAMPON, FEVER, SUNBURN_RASH),
    when("sepsis", TAMPON, FEVER, VOMITING),
    when("sepsis", TAMPON, FEVER, DIZZY_FAINT),
    // NHS: call 999 for a fever with new confusion, slurred speech or not making sense (sepsis).
    when("sepsis", FEVER, ALTERED_MIND),
    when("sepsis", FEVER, COLD_PERIPHERIES, RASH),
    when("sepsis", FEVER, COLD_PERIPHERIES, LEG_PAIN),
  ],
};
