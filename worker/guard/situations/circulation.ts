import { CLOT_RISK, DVT_SIGNS, LIMB_COLD_PALE, LIMB_NUMB_WEAK, PLEURITIC } from "./clots.ts";
import { BLEEDING, BREATHING_HARD, DIZZY_FAINT, FAINTING, SHOCK_SIGNS, VOMITING } from "./lexicon.ts";
import { PAIN_OUT_OF_PROPORTION } from "./lexicon-infection.ts";
import { context, sign, when, zhGap, type SituationModel } from "./sign.ts";

const CHEST_PAIN = sign(
  "chest pain",
  [
    "(?:pain|pressure|tightness|heaviness|weight) (?:in|on) (?:the (?:middle|centre|center) of )?(?:m" +
      "y|his|her|the) chest",
    "chest[^.,]{0,25}(?:pain|hurt\\w*|pressure|tight\\w*|squeez\\w*|crush\\w*|heavy|heaviness|ach\\w*" +
      "|burning|elephant)",
    "(?:pain|pressure|tightness|heaviness|weight|elephant) (?:in|on) (?:my|his|her|the) chest",
    "heart (?:hurts|pain)",
    "(?:tearing|ripping) (?:pain|sensation)[^.]{0,30}(?:chest|back)",
    "(?:chest|back)[^.,]{0,25}(?:tearing|ripping)",
  ],
  [
    "胸.{0,4}(?:痛|疼|闷|压|紧|憋|难受|绞)",
    // Tearing pain from the chest through to the back: aortic dissection (NICE CKS; ESC 2014).
    `胸${zhGap(8)}(?:撕裂|撕开|像被撕)`,
    "心口.{0,3}(?:痛|疼|闷|压)",
    "心脏.{0,3}(?:痛|疼)",
    "心绞痛",
  ],
);

/** What makes chest pain cardiac (NICE CG95): spread to arm, jaw, neck or back; sweating; breathlessness; nausea. */
const CARDIAC_FEATURES = sign(
  "cardiac features",
  [
    "(?:left |right |both )?arms?",
    "jaw",
    "neck",
    "shoulder",
    "sweat\\w*",
    "clammy",
    "nause\\w*",
    "short of breath",
    "breathless",
    "(?:\\d+|ten|fifteen|twenty|thirty) ?min\\w*",
    "won't go away",
    "not going away",
    "radiat\\w*",
  ],
  [
    "左臂",
    "手臂",
    "胳膊",
    "左手",
    "下巴",
    "后背",
    "肩",
    "出了?.{0,3}汗",
    "冷汗",
    "大汗",
    "恶心",
    "分钟",
    "不缓解",
    "放射",
  ],
);

/** Pain where cardiac pain goes without the chest (NICE CG95; women and older people often describe it so). */
const REFERRED_PAIN = sign(
  "jaw, arm or back pain",
  [
    "(?:pain|pressure|heaviness|ache|aching|tightness) (?:in|on) (?:my|his|her) (?:jaw|left arm)",
    "(?:pain|pressure|heaviness|ache) between (?:my|his|her) shoulder blades",
    "(?:jaw|left arm) (?:pain|ache|hurts)",
  ],
  ["下巴.{0,4}(?:痛|疼)", "左(?:臂|手|胳膊).{0,3}(?:痛|疼|麻)", "背脊.{0,3}(?:痛|疼)"],
);
const AUTONOMIC = sign(
  "sweating or sick",
  ["sweat\\w*", "clammy", "nause\\w*", "cold sweat", "grey", "gray", "feel sick"],
  ["冷汗", "大汗", "出汗", "恶心", "想吐"],
);

const PALPITATIONS = sign(
  "palpitations",
  [
    "heart (?:is )?(?:racing|pounding|all over the place|irregular|skipping)",
    "(?:racing|pounding|irregular) heart\\w*",
  ],
  ["心跳.{0,4}(?:好快|很快|好乱|很乱|乱跳)", "心慌"],
);

/** Bleeding that pressure does not stop, or that soaks through (NHS: severe bleeding; ATLS class III-IV signs). */
const BLEEDING_SEVERE = sign(
  "bleeding severe",
  [
    "won't stop",
    "wont stop",
    "isn't stopping",
    "not stopping",
    "can't stop",
    "keeps? (?:bleeding|coming|pouring|gushing)",
    "soak\\w* through",
    "soaked",
    "pouring",
    "gushing",
    "spurt\\w*",
    "squirt\\w*",
    "puls\\w*",
    "pumping",
    "pool of blood",
    "(?:a lot|lots|so much|loads) of blood",
    "blood everywhere",
    "blood all over",
    // A burst varicose vein bleeds fast and can kill an older person (NHS: varicose veins).
    "(?:varicose )?vein[^.]{0,15}(?:burst|popped|ruptured)",
    "artery",
    "to the bone",
    "for (?:over )?(?:\\d+|ten|fifteen|twenty|thirty|forty) min\\w*",
  ],
  [
    "飙",
    "往外冒",
    "还在流",
    "停不下来",
    "哗哗",
    "止不住",
    "止不了",
    "止不到",
    "不停",
    "一直流",
    "流个不停",
    "喷",
    "涌",
    "浸透",
    "湿透",
    "一大摊",
    "好多血",
    "很多血",
    "满地",
    "大量",
    "动脉",
    "见骨",
    "按不住",
  ],
);

const VOMIT_BLOOD = sign(
  "vomiting blood",
  [
    "(?:vomit\\w*|throw\\w* up|threw up|puk\\w*|cough\\w* up|being sick)[^.,]{0,30}blood",
    "(?:vomit\\w*|throw\\w* up|threw up|puk\\w*|cough\\w*(?: up)?|being sick)[^.,]{0,15}blood",
    "blood in (?:his |her |my )?(?:vomit|sick)",
    "coffee grounds?",
  ],
  ["吐血", "呕血", "咯血", "吐出.{0,4}血", `吐了?${zhGap(4)}血`, "吐.{0,4}咖啡(?:色|渣)", "咖啡渣"],
);

const BLACK_STOOL = sign(
  "black stool",
  [
    "(?:black|tarry|tar[- ]like|maroon) (?:poo|poop|stool|stools|diarrh\\w*|motion)",
    "(?:poo|poop|stool|stools) (?:is |are |was |looks? )?(?:\\w+ )?(?:black|tarry)",
  ],
  ["黑便", "柏油样", "(?:拉|大便|便便).{0,4}黑", "黑色.{0,2}(?:便|大便|便便)"],
);

/** Vascular occlusion after a filler: blanching, livedo, pain, visual change (King et al., JCAD 2020). */
const FILLER = context(
  "filler",
  [
    "fillers?",
    "hyaluronic",
    "juvederm",
    "restylane",
    "lip (?:injection|flip|filler)s?",
    "tear trough",
    "liquid rhinoplasty",
    "injectables?",
    "dermal",
    "got (?:my )?(?:lips|nose|cheeks|chin) (?:done|injected)",
  ],
  ["玻尿酸", "填充", "隆鼻", "苹果肌", "泪沟", "丰唇", "微整", "filler"],
);

const ISCHEMIA = sign(
  "ischaemic skin",
  [
    "(?:going|gone|turned|turning|went|is|looks) (?:white|blanched|pale|blue|purple|grey|gray|dusky|mottled|dark)",
    "white and (?:blotchy|blue|purple)",
    "blotchy (?:blue|purple)",
    "mottled",
    "lacy",
    "net[- ]?like",
    "dusky",
    "can't see",
    "vision (?:is )?(?:blurry|blurred|going|gone)",
  ],
  ["发白", "变白", "苍白", "发紫", "发青", "发灰", "发暗", "花斑", "网状", "花纹", "发黑", "看不清", "视力"],
);

export const CIRCULATION: SituationModel = {
  id: "circulation",
  sources: [
    "NICE CG95: Chest pain of recent onset (features of acute coronary syndrome)",
    "NHS: When to call 999 (chest pain, severe bleeding, collapse)",
    "NICE NG141 / CKS: Upper gastrointestinal bleeding: haematemesis, melaena with shock",
    "NICE NG158: Venous thromboembolic diseases (DVT signs, pleuritic pain, breathlessness, haemoptysis)",
    "European Society for Vascular Surgery 2020: Acute limb ischaemia (pain, pallor, paraesthesia, paralysis)",
    "NICE CKS: Aortic dissection (sudden tearing chest or back pain)",
    "King M. et al., Management of a vascular occlusion associated with cosmetic injections, J Clin A" +
      "esthet Dermatol 2020",
    "中华医学会急诊医学分会, 急诊预检分诊专家共识, 2018 (胸痛, 大出血, 休克征象)",
  ],
  combinations: [
    when("cardiac", CHEST_PAIN, CARDIAC_FEATURES),
    when("cardiac", CHEST_PAIN, BREATHING_HARD),
    when("cardiac", CHEST_PAIN, DIZZY_FAINT),
    when("cardiac", REFERRED_PAIN, AUTONOMIC),
    when("cardiac", PALPITATIONS, FAINTING),
    when("cardiac", SHOCK_SIGNS, VOMITING),
    when("bleeding", BLEEDING, BLEEDING_SEVERE),
    when("bleeding", BLEEDING, SHOCK_SIGNS),
    when("bleeding", VOMIT_BLOOD),
    when("bleeding", BLACK_STOOL, DIZZY_FAINT),
    when("collapse", SHOCK_SIGNS, DIZZY_FAINT),
    when("circulation", DVT_SIGNS, BREATHING_HARD),
    when("circulation", DVT_SIGNS, PLEURITIC),
    when("circulation", CLOT_RISK, PLEURITIC, BREATHING_HARD),
    when("circulation", LIMB_COLD_PALE, LIMB_NUMB_WEAK),
    when("circulation", LIMB_COLD_PALE, PAIN_OUT_OF_PROPORTION),
    when("vascular", FILLER, ISCHEMIA),
    when("vascular", FILLER, PAIN_OUT_OF_PROPORTION),
  ],
};
