/**
 * Pinyin typed without tones, as a visitor without a Chinese keyboard writes ("baobao fashao 38.6 du"),
 * read as the characters the Chinese rules know. Only words of two syllables or more (none is an
 * English word), and figures with their unit ("38.6 du", "7 zhou"); a message is read this way only
 * when two such words are in it, so an English message with a stray "mama" stays as it is. In such a
 * message, single syllables that carry the meaning ("xue", "tong") are read too.
 */
const WORDS: Record<string, string> = {
  baobao: "宝宝",
  haizi: "孩子",
  erzi: "儿子",
  nver: "女儿",
  nuer: "女儿",
  laogong: "老公",
  laopo: "老婆",
  baba: "爸爸",
  mama: "妈妈",
  wobaba: "我爸爸",
  woba: "我爸",
  woma: "我妈",
  nainai: "奶奶",
  yeye: "爷爷",
  waipo: "外婆",
  xianzai: "现在",
  gangcai: "刚才",
  turan: "突然",
  henduo: "很多",
  fashao: "发烧",
  gaoshao: "高烧",
  tuxue: "吐血",
  tule: "吐了",
  outu: "呕吐",
  liuxue: "流血",
  chuxue: "出血",
  zhibuzhu: "止不住",
  xiongkou: "胸口",
  xiongtong: "胸痛",
  xiongmen: "胸闷",
  touyun: "头晕",
  toutong: "头痛",
  yundao: "晕倒",
  hunmi: "昏迷",
  jiaobuxing: "叫不醒",
  chouchu: "抽搐",
  huxi: "呼吸",
  kunnan: "困难",
  chuanbuguoqi: "喘不过气",
  zuichun: "嘴唇",
  fazi: "发紫",
  lianbai: "脸白",
  zuiwai: "嘴歪",
  shuohua: "说话",
  buqing: "不清",
  buchinai: "不吃奶",
  yizhishui: "一直睡",
  yizhitu: "一直吐",
  buxianghuo: "不想活",
  xiangsi: "想死",
  zisha: "自杀",
  gewan: "割腕",
  anmianyao: "安眠药",
  hele: "喝了",
  guomin: "过敏",
  zhongle: "肿了",
  shuipao: "水泡",
  tuopi: "脱皮",
  tangshang: "烫伤",
  shaoshang: "烧伤",
  huaiyun: "怀孕",
  jianhong: "见红",
  taidong: "胎动",
  meiqi: "煤气",
  zhongshu: "中暑",
  nongyao: "农药",
  dianchi: "电池",
};

/** Syllables read alone only inside a message already typed in pinyin. */
const SYLLABLES: Record<string, string> = {
  xue: "血",
  tong: "痛",
  teng: "疼",
  yun: "晕",
  tu: "吐",
  han: "汗",
  yao: "药",
  liang: "凉",
  bai: "白",
  lian: "脸",
  shou: "手",
  zui: "嘴",
  wai: "歪",
  chi: "吃",
  chu: "出",
  le: "了",
  hen: "很",
  da: "大",
  cai: "才",
  zhong: "肿",
  shao: "烧",
  si: "死",
};
const SYLLABLE_RE = new RegExp(`(?<![a-z])(?:${Object.keys(SYLLABLES).join("|")})(?![a-z])`, "g");

/** The longest words first, so "jiaobuxing" is read before any word inside it. */
const KEYS = Object.keys(WORDS).sort((a, b) => b.length - a.length);
// A word's syllables may be typed apart ("fa shao") or together ("fashao").
const spaced = (word: string) => word.split("").join(" ?");
const WORD_RE = new RegExp(`(?<![a-z])(?:${KEYS.map(spaced).join("|")})(?![a-z])`, "g");
const UNITS: [RegExp, string][] = [
  [/(\d+(?:\.\d)?) ?du(?![a-z])/g, "$1度"],
  [/(\d+) ?zhou(?![a-z])/g, "$1周"],
  [/(\d+) ?sui(?![a-z])/g, "$1岁"],
  [/(\d+) ?ge ?yue(?![a-z])/g, "$1个月"],
];

export function pinyinAsCharacters(text: string): string {
  const hits = text.match(WORD_RE);
  if (!hits || hits.length < 2) return text;
  let out = text.replace(WORD_RE, (w) => WORDS[w.replace(/ /g, "")] ?? w);
  for (const [re, to] of UNITS) out = out.replace(re, to);
  return out.replace(SYLLABLE_RE, (s) => SYLLABLES[s]).replace(/(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])/g, "");
}
