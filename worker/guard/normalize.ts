/**
 * Text as the guard's rules read it: NFKC (full-width letters and digits become ASCII), lower case,
 * one kind of apostrophe, and common misspellings of the words the rules need put right. Visitors in
 * distress type fast; "cant breath", "chets pain" and "sucidal" must read like the real words.
 */

/** Spellings too far from the word for the edit check below, and chat shorthand. */
const SPELLINGS: Record<string, string> = {
  cant: "can't",
  cannot: "can't",
  cnt: "can't",
  couldnt: "couldn't",
  dont: "don't",
  doesnt: "doesn't",
  didnt: "didn't",
  wont: "won't",
  isnt: "isn't",
  im: "i'm",
  ive: "i've",
  hes: "he's",
  shes: "she's",
  its: "it's",
  wanna: "want to",
  gonna: "going to",
  u: "you",
  ur: "your",
  chst: "chest",
  brethe: "breathe",
  breth: "breath",
  sueside: "suicide",
  suecide: "suicide",
  suiside: "suicide",
  kms: "kill myself",
  unalive: "kill",
  attak: "attack",
  atack: "attack",
  hart: "heart",
  pian: "pain",
  paim: "pain",
  apin: "pain",
  od: "overdose",
  hasnt: "hasn't",
  havent: "haven't",
  wasnt: "wasn't",
  werent: "weren't",
  arent: "aren't",
  whats: "what's",
  thats: "that's",
  theres: "there's",
  youre: "you're",
  theyre: "they're",
  mins: "minutes",
  "od'd": "overdosed",
};

/** Words the rules hinge on; a word one edit away from one of them (same first letter) is read as it. */
const KEYWORDS = [
  "chest",
  "breathe",
  "breathing",
  "breath",
  "stroke",
  "bleeding",
  "suicide",
  "suicidal",
  "overdose",
  "overdosed",
  "unconscious",
  "unresponsive",
  "allergic",
  "swelling",
  "swollen",
  "seizure",
  "choking",
  "myself",
  "poisoned",
  "swallowed",
  "pressure",
  "drooping",
  "slurred",
  "slurring",
  "anaphylaxis",
  "anaphylactic",
  "crushing",
  "squeezing",
  "tightness",
  "attack",
  "heart",
  "numbness",
  "paracetamol",
  "acetaminophen",
  "tablets",
  "bleach",
];
const KEYWORD_SET = new Set(KEYWORDS);

/** Real words one edit from a keyword: never "corrected". */
const REAL_WORDS = new Set([
  "chess",
  "chests",
  "strike",
  "stoke",
  "stoked",
  "strobe",
  "strokes",
  "breadth",
  "breathes",
  "spelling",
  "dwelling",
  "smelling",
  "shelling",
  "selling",
  "swelled",
  "attach",
  "attacks",
  "hearth",
  "hearts",
  "heard",
  "heat",
  "hears",
  "hearty",
  "tablet",
  "bleaches",
  "breather",
  "seizures",
  "stroked",
  "pressures",
  "pressured",
]);

/** Within one edit: a letter changed, added, dropped, or two neighbours swapped (Damerau). */
function oneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

const fixed = new Map<string, string>();

function fixWord(word: string): string {
  const known = SPELLINGS[word];
  if (known !== undefined) return known;
  if (word.length < 5 || KEYWORD_SET.has(word) || REAL_WORDS.has(word)) return word;
  let hit = fixed.get(word);
  if (hit === undefined) {
    hit = KEYWORDS.find((k) => k[0] === word[0] && oneEdit(word, k)) ?? word;
    // Bounded: a visitor's vocabulary is not allowed to grow the isolate's memory.
    if (fixed.size < 5000) fixed.set(word, hit);
  }
  return hit;
}

/**
 * Traditional characters the Chinese rules need, as simplified: visitors in Taiwan and Hong Kong
 * write 藥, 頭暈, 嘔吐. Pairs, traditional first.
 */
const TRADITIONAL =
  "誤误藥药頭头暈晕燒烧發发腫肿嚨咙臉脸膚肤應应說说話话氣气沒没會会動动傷伤裡里裏里過过還还麼么給给壓压塊块紅红" +
  "點点體体熱热電电經经後后從从們们開开時时顆颗變变燙烫脫脱濕湿寶宝兒儿親亲爺爷媽妈嬤嬷塗涂噴喷睜睁邊边側侧" +
  "齒齿語语講讲見见視视腦脑頸颈腳脚這这個个兩两週周懷怀陣阵驚惊嚇吓殺杀遺遗書书東东決决歲岁鐘钟鹼碱爐炉報报" +
  "響响蝦虾針针療疗術术膿脓潰溃爛烂蒼苍輕轻層层穩稳嘔呕瀉泻嚴严難难嚥咽鯁鲠緊紧聲声啞哑蕁荨風风團团癲癫癇痫" +
  "識识溫温極极嬰婴飲饮餵喂軟软曬晒臟脏絞绞悶闷亂乱滿满斷断樓楼橋桥結结準准備备憂忧鬱郁問问題题醫医師师護护" +
  "處处喚唤叫叫衝冲窩窝鬆松襪袜膠胶囊囊劑剂鏡镜燈灯綠绿黃黄腸肠胃胃糞粪衛卫鼻鼻陰阴屍尸罐罐煙烟災灾瓶瓶雜杂" +
  "誌志張张撐撑惡恶紀纪錄录貓猫狗狗讓让對对絕绝鐵铁藍蓝紫紫綁绑雙双隻只幾几賣卖業业績绩幫帮調调單单萬万買买車车廁厕盡尽";
const TO_SIMPLIFIED = new Map<string, string>();
for (let i = 0; i < TRADITIONAL.length; i += 2) TO_SIMPLIFIED.set(TRADITIONAL[i], TRADITIONAL[i + 1]);
const TRADITIONAL_RE = new RegExp(`[${[...TO_SIMPLIFIED.keys()].join("")}]`, "g");

/** Cantonese words as the Mandarin the rules read: "叫極都唔醒" is "叫极都不醒". */
const CANTONESE: [RegExp, string][] = [
  [/唔/g, "不"],
  [/冇/g, "没"],
  [/咗/g, "了"],
  [/佢/g, "他"],
  [/係/g, "是"],
  [/喺/g, "在"],
  [/啲/g, "些"],
  [/嘢/g, "东西"],
  [/眼瞓/g, "困"],
  [/好辛苦/g, "很难受"],
  // Only where it is the verb: 误食 and 食物 stay as they are.
  [/食(?=了|紧|东西|错|完|过)/g, "吃"],
];

// A space between two Chinese characters does a comma's work: "我2018年心梗 现在想做激光" is two clauses.
const CJK_SPACE = /(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])/g;

export function normalizeText(text: string): string {
  let out = text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/\bcan not\b/g, "can't")
    .replace(/[a-z][a-z']*/g, (w) => fixWord(w))
    .replace(/[ \t]+/g, " ");
  if (/[\u3400-\u9fff]/.test(out)) {
    out = out.replace(TRADITIONAL_RE, (c) => TO_SIMPLIFIED.get(c) ?? c);
    for (const [re, to] of CANTONESE) out = out.replace(re, to);
    out = out.replace(CJK_SPACE, "，");
  }
  return out;
}
