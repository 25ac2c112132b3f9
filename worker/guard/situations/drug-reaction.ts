import { CLONUS, SEROTONERGIC } from "./serotonin-toxicity.ts";
import { BREATHING_HARD, CONFUSION, DIZZY_FAINT, SHOCK_SIGNS, VOMITING } from "./lexicon.ts";
import { FEVER, RASH, SEPSIS_SIGNS } from "./lexicon-infection.ts";
import { context, sign, when, zhGap, type SituationModel } from "./sign.ts";

/** A medicine started recently: the context of SJS/TEN, DRESS and drug angioedema. */
const NEW_MEDICINE = context(
  "new medicine",
  [
    "new (?:medicine|medication|meds|drug|pills?|tablets|prescription|antibiotics?)",
    "started (?:taking|on|a new)",
    "(?:just|recently) (?:started|began|been prescribed|prescribed)",
    "since (?:starting|taking|i started)",
    "after (?:taking|starting)",
    "took",
    "antibiotics?",
    "amoxicillin",
    "augmentin",
    "penicillin",
    "cephalexin",
    "sulfa\\w*",
    "bactrim",
    "septra",
    "co-trimoxazole",
    "lamotrigine",
    "lamictal",
    "allopurinol",
    "carbamazepine",
    "tegretol",
    "phenytoin",
    "nevirapine",
    "ibuprofen",
    "nsaids?",
    "naproxen",
    "lisinopril",
    "enalapril",
    "ramipril",
    "perindopril",
    "ace inhibitor",
    "blood pressure (?:pills?|meds|medicine|tablets)",
    "(?:seizure|epilepsy|gout) (?:med\\w*|pills?|tablets)",
  ],
  [
    "新药",
    "新开的药",
    "(?:口服|开的)药",
    "(?:复方)?新诺明",
    "抗抑郁药",
    "吃了.{0,8}药",
    "开始吃",
    "换了药",
    "刚吃",
    "服用",
    "抗生素",
    "消炎药",
    "头孢",
    "阿莫西林",
    "青霉素",
    "别嘌醇",
    "卡马西平",
    "拉莫三嗪",
    "苯妥英",
    "降压药",
    "普利",
    "磺胺",
    "布洛芬",
  ],
);

/** Epidermal loss: the sign that separates SJS/TEN from an ordinary drug rash (BAD; AAD). */
const SKIN_LOSS = sign(
  "skin coming off",
  [
    "blister\\w*",
    "peel\\w*",
    "skin (?:is )?(?:coming|falling|sliding|lifting) off",
    "coming off in (?:patches|sheets)",
    "sloughing",
    "raw (?:skin|patches|areas)",
    "(?:looks|like) (?:a )?burns?",
  ],
  ["水泡", "水疱", "起泡", "脱皮", "掉皮", "表皮脱落", "皮肤脱落", "一碰就破", "像烫伤", "大疱"],
);

const MUCOSA = sign(
  "mouth, eyes or genitals",
  [
    "eyes (?:are )?(?:stuck|glued) (?:together|shut)",
    "hurts to (?:pee|wee|urinate)",
    "genital sores",
    "(?:mouth|lips?|eyes?|genital\\w*|gums?)[^.,]{0,25}(?:sores?|ulcers?|blister\\w*|raw|bleeding|cru" +
      "st\\w*|peel\\w*|red and)",
    "(?:sores?|ulcers?|blisters?) (?:in|on|around|inside) (?:my |his |her |the )?(?:mouth|lips|eyes|genitals)",
    "(?:down below|down there|privates|private (?:parts|area)|vulva|vagina|penis|foreskin)[^.,]{0,25}(?:sores?|ulc" +
      "ers?|blister\\w*|raw|peel\\w*)",
  ],
  [
    "(?:口|嘴).{0,2}(?:同|和)眼.{0,4}痛",
    "口.{0,2}眼.{0,4}(?:都)?(?:好|很)?痛",
    `(?:嘴|口腔|嘴巴|嘴唇|眼睛|眼|生殖器|下体|私处|阴部|外阴)${zhGap(6)}(?:溃烂|溃疡|起泡|破|烂|糜烂|出血|结痂)`,
    "口腔溃疡",
    `眼睛${zhGap(3)}(?:粘|黏)(?:住|在一起|得睁不开)`,
  ],
);

/** Angioedema of the lips, tongue, face or throat. */
const ANGIOEDEMA = sign(
  "angioedema",
  [
    "(?:face|lips?|tongue|mouth)[^.,]{0,20}(?:balloon\\w*|swelled)",
    "tongue feels (?:too )?(?:big|thick|swollen|huge)",
    "(?:lips?|tongue|face|mouth|throat)[^.,]{0,20}(?:swell\\w*|swollen|puff\\w*|blown up|huge)",
    "swollen (?:lips?|tongue|face|eyelids?)",
    "swelling (?:shut|up)",
    "swollen (?:almost |nearly |half |completely )?shut",
  ],
  [`(?:嘴唇|舌头|脸|面|眼皮|眼睛|喉咙|嘴)${zhGap(4)}(?:肿|胀)`, "肿起来"],
);

const THROAT = sign(
  "throat or swallowing",
  [
    "throat[^.,]{0,15}(?:tight|closing|closed|swell\\w*|narrow\\w*)",
    "(?:hard|can't|difficult|difficulty|trouble) (?:to )?swallow\\w*",
    "tongue (?:is )?(?:swell\\w*|swollen|thick)",
    "voice (?:has |is )?(?:gone |going |getting |become )?(?:hoarse|changed|weird|croaky)",
    "(?:keeps|kept) clearing (?:his|her|my|their) throat",
  ],
  [`(?:喉咙|嗓子)${zhGap(6)}(?:紧|肿|堵|收窄|tight)`, "吞不下", "难吞", "咽不下", "舌头.{0,3}肿", "声音嘶哑"],
);

/** Exposure to an allergen: a sting, a food, an injection. */
const ALLERGEN = context(
  "allergen",
  [
    "sting",
    "stung",
    "bees?",
    "wasps?",
    "hornets?",
    "peanuts?",
    "nuts",
    "shellfish",
    "shrimps?",
    "prawns?",
    "ate",
    "after (?:eating|lunch|dinner)",
    "injection",
    "shot",
    "vaccine",
    "jab",
    "contrast",
    "allerg\\w*",
    // Hair dye (PPD) is a classic cause of severe contact allergy and angioedema (BAD: PPD allergy).
    "hair dye",
    "dyed (?:my|his|her) hair",
    "ppd",
    "(?:black )?henna",
    "amoxicillin",
    "penicillin",
    "antibiotics?",
  ],
  [
    "蜂",
    "蜇",
    "叮",
    "花生",
    "坚果",
    "海鲜",
    "虾",
    "过敏",
    "打针",
    "打完针",
    "注射",
    "疫苗",
    "吃了",
    "抗生素",
    "染发",
    "染头发",
  ],
);

const HIVES = sign(
  "hives",
  [
    "(?:red )?blotches (?:all over|everywhere)",
    "blotches everywhere",
    "hives",
    "welts",
    "blotchy all over",
    "blotches all over",
    "rash all over",
    "covered in (?:a )?(?:rash|hives|spots)",
    "red all over",
    "(?:scratching|itch\\w*) all over",
  ],
  [
    "荨麻疹",
    "风团",
    "全身.{0,3}(?:疹|红|起包|痒)",
    `(?:身上|全身|满身)${zhGap(6)}(?:红块|风团|疙瘩|起包|一块一块|红疹)`,
    "hives",
  ],
);

/** Systemic features that make an allergic reaction anaphylaxis (Resuscitation Council UK 2021). */
const SYSTEMIC = sign(
  "systemic",
  [
    "blood pressure (?:dropped|is low|crashed|dropping)",
    "legs? (?:like|feel like) jelly",
    "(?:going to|about to|gonna) pass out",
    "(?:bp|blood pressure)[^.]{0,20}(?<!\\d)[4-8]\\d ?/ ?\\d{2}(?!\\d)",
    "dizzy",
    "faint\\w*",
    "light ?headed",
    "passing out",
    "collaps\\w*",
    "going faint",
    "vomit\\w*",
    "throwing up",
    "can't breathe",
    "wheez\\w*",
    "throat (?:is )?(?:tight|closing)",
  ],
  [
    "血压(?:低|很低|好低)",
    "头晕",
    "晕",
    "站不住",
    "站不稳",
    "呕吐",
    "想吐",
    "吐了",
    "喘不上",
    "呼吸困难",
    "喉咙.{0,3}紧",
  ],
);

/** DRESS: rash, fever, swollen glands or face weeks after a new medicine. */
/** After an adrenaline auto-injector the ambulance is called, whatever follows (Resuscitation Council UK). */
const ADRENALINE_USED = sign(
  "adrenaline used",
  [
    "(?:used|gave|given|give|jabbed) (?:him |her |them |my |his |her )?(?:the |an |my |his |her )?epi-?pens?",
    "epi-?pen (?:in|into)",
  ],
  ["用了?.{0,3}肾上腺素笔", "打了?.{0,3}肾上腺素"],
);
const TONGUE_SWELLING = sign(
  "tongue swelling",
  [
    "tongue (?:keeps )?getting (?:bigger|fatter|thicker)",
    "tongue (?:is |feels )?(?:swell\\w*|swollen|too big|huge|thick)",
    "swollen tongue",
  ],
  ["舌头.{0,3}(?:肿|变大|大了)"],
);

/** Skin that slides off when rubbed (the Nikolsky sign): epidermal necrolysis. */
const SKIN_SLIDES_OFF = sign(
  "skin slides off",
  [
    "(?:skin )?(?:slides|slid|sliding|comes|coming|peels|peeling|rubs|wipes) off (?:in (?:sheets|layers|patches) )?" +
      "(?:if|when) (?:you |i |we |the \\w+ |someone )?(?:rub|touch|press)",
    "slides off",
  ],
  ["一擦就(?:甩|掉|破|脱)", "一碰就(?:掉|破|脱)", "皮甩"],
);

/** Blisters over much of the body after a medicine: epidermal necrolysis until shown otherwise (BAD; AAD). */
const WIDESPREAD_BLISTERS = sign(
  "widespread blisters",
  [
    "(?:blister\\w*|peeling)[^.]{0,20}(?:all over|everywhere|whole body)",
    "(?:all over|everywhere)[^.]{0,30}blister\\w*",
    "(?:turning|turned) into blisters",
  ],
  [`(?:全身|满身|大片|到处)${zhGap(3)}(?:水泡|水疱|大疱|起泡)`],
);

const DRESS_FEATURES = sign(
  "dress features",
  ["swollen glands", "glands (?:are )?swollen", "lymph nodes", "(?:face|eyes) (?:is |are )?(?:puffed|puffy|swollen)"],
  ["淋巴结.{0,3}肿", "脖子.{0,3}(?:肿|包)", "脸.{0,3}肿"],
);

export const DRUG_REACTION: SituationModel = {
  id: "drug_reaction",
  sources: [
    "British Association of Dermatologists: Stevens-Johnson syndrome and toxic epidermal necrolysis p" +
      "atient information",
    "American Academy of Dermatology: Stevens-Johnson syndrome/toxic epidermal necrolysis: signs and symptoms",
    "Resuscitation Council UK: Emergency treatment of anaphylaxis, 2021 (airway, breathing or circulation problems)",
    "NICE CKS: Angio-oedema and anaphylaxis; MHRA: ACE inhibitor angioedema",
    "RegiSCAR criteria for DRESS (rash, fever, lymphadenopathy, facial oedema after a new drug)",
    "Hunter serotonin toxicity criteria (Dunkley et al., QJM 2003): clonus, hyperthermia, agitation, sweating",
  ],
  combinations: [
    when("skin_reaction", SKIN_LOSS, MUCOSA),
    when("skin_reaction", SKIN_SLIDES_OFF, NEW_MEDICINE),
    when("skin_reaction", SKIN_SLIDES_OFF, MUCOSA),
    when("skin_reaction", SKIN_LOSS, NEW_MEDICINE, FEVER),
    when("skin_reaction", MUCOSA, NEW_MEDICINE, RASH),
    when("skin_reaction", WIDESPREAD_BLISTERS, NEW_MEDICINE),
    when("drug_reaction", SEROTONERGIC, CLONUS, FEVER, SEPSIS_SIGNS),
    when("drug_reaction", SEROTONERGIC, CLONUS, FEVER, CONFUSION),
    when("drug_reaction", SEROTONERGIC, CLONUS, SEPSIS_SIGNS, CONFUSION),
    when("anaphylaxis", ADRENALINE_USED),
    when("anaphylaxis", TONGUE_SWELLING),
    when("anaphylaxis", HIVES, THROAT),
    when("anaphylaxis", ANGIOEDEMA, THROAT),
    when("anaphylaxis", ANGIOEDEMA, BREATHING_HARD),
    when("anaphylaxis", ANGIOEDEMA, NEW_MEDICINE),
    when("anaphylaxis", ANGIOEDEMA, ALLERGEN, SYSTEMIC),
    when("anaphylaxis", HIVES, SYSTEMIC),
    when("anaphylaxis", HIVES, SHOCK_SIGNS),
    when("anaphylaxis", ALLERGEN, THROAT),
    when("anaphylaxis", ALLERGEN, VOMITING, DIZZY_FAINT),
    when("skin_reaction", RASH, FEVER, DRESS_FEATURES, NEW_MEDICINE),
  ],
};
