import { CHILD, INFANT, PAIN_OUT_OF_PROPORTION, SHOCK_SIGNS, CONFUSED_DROWSY } from "./lexicon.ts";
import { context, sign, when, type SituationModel } from "./sign.ts";

const CHEMICAL = context(
  "chemical",
  [
    "paint stripper",
    "wart (?:remover|acid)",
    "acids?",
    "tca",
    "glycolic",
    "salicylic",
    "(?:chemical )?peels?",
    "chemicals?",
    "bleach",
    "drain (?:cleaner|unblocker)",
    "lye",
    "caustic",
    "oven cleaner",
    "ammonia",
    "alkali\\w*",
    "hydrofluoric",
    "rust remover",
    "sodium hydroxide",
    "cement",
    "quicklime",
  ],
  [
    "酸",
    "刷酸",
    "换肤",
    "化学",
    "漂白",
    "84消毒液",
    "通(?:下水道|水管|渠)",
    "管道疏通",
    "烧碱",
    "火碱",
    "石灰",
    "水泥",
    "腐蚀",
    "tca",
    "peel",
  ],
);

const IN_THE_EYE = sign(
  "in the eye",
  [
    "eyes? ?(?:入|进)",
    "(?:in|into) (?:my|his|her|their|the|both) (?:\\w+(?:'s|s)? )?eyes?",
    "eyes? (?:is |are )?(?:burning|stinging)",
    "can't open (?:my|his|her|their) eyes?",
  ],
  ["眼.{0,3}(?:入|进)", "(?:溅|喷|弄|进|入).{0,4}眼", "眼睛里", "眼睛.{0,4}(?:睁不开|痛|烧)", "睁不开"],
);

/** A burn that needs an emergency department (NHS; British Burn Association referral criteria). */
const SERIOUS_BURN = sign(
  "serious burn",
  [
    "blistered and peeling",
    "peeling and blistered",
    "face (?:is |got )?(?:burnt|burned)",
    "burnt (?:his|her|my) face",
    "both (?:legs|arms|hands|feet)",
    "white",
    "grey",
    "gray",
    "leathery",
    "charred",
    "black",
    "(?:doesn't|does not|don't) (?:even )?hurt",
    "big blisters",
    "blister\\w* all over",
    "(?:raw|blistering) all over",
    "all over (?:my|his|her) (?:face|body|chest|back|legs?|arms?)",
    "(?:whole|entire) (?:face|arm|leg|chest|back|body)",
    "all down (?:my|his|her) (?:back|arm|leg|chest)",
    "(?:chest|back|tummy|stomach|face)[^.]{0,30}(?:blister\\w*|burn\\w*)",
    "bigger than (?:my|his|her|a) (?:hand|palm)",
    "swelling shut",
    "burning like crazy",
  ],
  [
    "面积(?:很|好)?大",
    "皮都掉了",
    "掉皮",
    "整只",
    "起泡脱皮",
    "发白",
    "发黑",
    "焦",
    "大水泡",
    "大水疱",
    "一大片",
    "大面积",
    "全身",
    "整个脸",
    "整张脸",
    "前胸",
    "后背",
    "比手掌大",
    "不痛了",
    "火辣辣",
    "加重",
    "越来越痛",
  ],
);

const BURN = context(
  "burn",
  [
    "hot (?:oil|water|tap|bath)",
    "firework\\w*",
    "explosion",
    "burn\\w*",
    "scald\\w*",
    "on fire",
    "boiling (?:water|oil)",
    "kettle",
  ],
  [
    "热水",
    "热水壶",
    "滚水",
    "热油",
    "炸伤",
    "炸到",
    "鞭炮",
    "烟花",
    "烧伤",
    "烫伤",
    "烫到",
    "烫了",
    "灼伤",
    "烧到",
    "被烫",
    "开水",
    "着火",
  ],
);

const ELECTRIC = context(
  "electric",
  [
    "(?:overhead |live |electric )wires?",
    "power lines?",
    "electric\\w*",
    "electrocut\\w*",
    "(?:got|had) (?:a|an) (?:electric )?shock",
    "mains",
    "wiring",
    "live wire",
    "power line",
    "lightning",
  ],
  ["高压线", "触电", "电击", "被电", "电线", "雷击"],
);

const ELECTRIC_HARM = sign(
  "electric injury",
  [
    "burn\\w*",
    "heart (?:feels|is) (?:funny|weird|racing|fluttering)",
    "(?:racing|irregular|skipping) heart",
    "passed out",
    "knocked out",
    "numb",
  ],
  ["烧焦", "烧伤", "伤口", "心慌", "心跳", "昏", "迷糊", "麻"],
);

/** Hydrofluoric acid burns deepen for hours with little to see (NHS; UK Health Security Agency). */
const HYDROFLUORIC = sign("hydrofluoric acid", ["hydrofluoric", "hf acid", "rust remover"], ["氢氟酸", "除锈剂"]);
const WORSENING = sign(
  "getting worse",
  ["getting worse", "worse and worse", "still burning"],
  ["越来越痛", "加重", "还在烧"],
);

const PROCEDURE = context(
  "laser or peel",
  ["laser", "ipl", "peel", "treatment", "procedure", "microneedling"],
  ["激光", "光子", "刷酸", "换肤", "治疗", "热玛吉", "点痣"],
);

export const BURNS: SituationModel = {
  id: "burns",
  sources: [
    "NHS: Burns and scalds (chemical and electrical burns, large or deep burns, burns in children: go to A&E)",
    "NHS: Chemical in the eye: rinse for 20 minutes and go to A&E",
    "British Burn Association: National burn care referral guidance, 2012 (size, depth, site, chemical, electrical)",
    "American Academy of Dermatology: Chemical peel complications",
  ],
  combinations: [
    when("burn", CHEMICAL, IN_THE_EYE),
    when("burn", CHEMICAL, SERIOUS_BURN),
    when("burn", CHEMICAL, PAIN_OUT_OF_PROPORTION),
    when("burn", HYDROFLUORIC),
    when("burn", CHEMICAL, BURN, WORSENING),
    when("burn", BURN, SERIOUS_BURN, CHILD),
    when("burn", BURN, SERIOUS_BURN, INFANT),
    when("burn", BURN, SHOCK_SIGNS),
    when("burn", PROCEDURE, SERIOUS_BURN, SHOCK_SIGNS),
    when("burn", BURN, SERIOUS_BURN),
    when("burn", ELECTRIC, ELECTRIC_HARM),
    when("burn", ELECTRIC, CONFUSED_DROWSY),
  ],
};
