/**
 * What around a matched phrase says it is not happening now: a negation just before it in the same
 * clause ("no chest pain", "没有胸痛"), a past the sentence places it in ("my father had a stroke in
 * 2010", "他十年前中风过"), or a general question about nobody in particular ("what are the signs of
 * a stroke?"). Each takes the normalized text and the match's span.
 */

const SENTENCE_END = /[.!?;。！？；\n]/;
const CLAUSE_END = /[.!?;,:。！？；，：、\n]|\b(?:but|however|although|though)\b|但是|不过|可是/g;

/** The sentence holding [start, end). */
export function sentenceAround(text: string, start: number, end: number): string {
  let from = start;
  while (from > 0 && !SENTENCE_END.test(text[from - 1])) from--;
  let to = end;
  while (to < text.length && !SENTENCE_END.test(text[to])) to++;
  return text.slice(from, to);
}

/** The clause holding [start, end): between commas, full stops, "but" and their Chinese kin. */
export function clauseAround(text: string, start: number, end: number): string {
  const before = clauseBefore(text, start);
  const after = text.slice(end, end + 120);
  CLAUSE_END.lastIndex = 0;
  const stop = CLAUSE_END.exec(after);
  CLAUSE_END.lastIndex = 0;
  return before + text.slice(start, end) + (stop ? after.slice(0, stop.index) : after);
}

/** The text of the clause before `start`: from the last comma, full stop or "but" up to the match. */
export function clauseBefore(text: string, start: number): string {
  const head = text.slice(Math.max(0, start - 80), start);
  let cut = 0;
  for (const m of head.matchAll(CLAUSE_END)) cut = m.index + m[0].length;
  return head.slice(cut);
}

const EN_NEGATION = new RegExp(
  [
    "\\b(?:no|not|never|without|don't|doesn't|",
    "didn't|isn't|aren't|wasn't|weren't|haven't|",
    "hasn't|hadn't|nor|neither|denies|denied|",
    "free of|ruled out)\\b(?!\\s+(?:sure|certain|",
    "know|idea|clue|matter|doubt|way|longer able|worry|panic|",
    "stop|one|only|joke|kidding|lie))",
  ].join(""),
);
/** Words with 不 or 没 that negate nothing: "bleeding non-stop", "unwell", "I don't know". */
const ZH_NOT_NEGATION = new RegExp(
  [
    "不停|不断|不止|不行|不舒服|不知道|",
    "不对劲|受不了|不得了|不了|不住|",
    "不清|不醒|没法|没办法|没用|不会吧|差不多|不少",
  ].join(""),
  "g",
);
const ZH_NEGATION = /没|不|无|未|非|否认|别/;

/**
 * A negation among the last few words (English) or characters (Chinese) before the match. An "and"
 * starts a new predicate: in "not making sense and hot as anything" the "not" is the first one's.
 */
export function negatedBefore(text: string, start: number): boolean {
  const clause = clauseBefore(text, start);
  const words = clause
    .trim()
    .split(/\s+/)
    .slice(-4)
    .join(" ")
    .replace(/^.*\band\b/, "");
  if (EN_NEGATION.test(words)) return true;
  const chars = clause.slice(-6).replace(ZH_NOT_NEGATION, "");
  return ZH_NEGATION.test(chars);
}

/** Said after the phrase: it is over ("the chest pain went away", "胸痛已经好了"), or answered no. */
const RESOLVED_AFTER = new RegExp(
  [
    "^\\W{0,3}(?:(?:has |had |have )?(?:gone away|",
    "went away|is gone|was gone|has gone|stopped|",
    "has stopped|resolved|passed)\\b|(?:\\? ?|: ?|",
    "- ?)(?:no|none|nope|negative)\\b)|^[^，。！？,.!?]{0,4}(?:已经)?(?:好了|",
    "消失了|缓解了|没了|结束)",
  ].join(""),
);

export function resolvedAfter(text: string, end: number): boolean {
  return RESOLVED_AFTER.test(text.slice(end, end + 40));
}

const EN_PAST = new RegExp(
  [
    "\\b(?:(?:\\d+|a few|a couple of|several|many|",
    "two|three|four|five|six|ten|twenty) (?:years?|",
    "months?|decades?) (?:ago|back)|last (?:year|",
    "month|summer|winter|spring|fall|autumn)|",
    "in (?:19|20)\\d\\d|back in|(?:years|months|decades|ages|long) ago|when (?:i|he|she|",
    "they|we) (?:was|were)|as a (?:kid|child|",
    "teen|teenager|baby)|used to|history of|in the past|",
    "previously|years back|survived|survivor|",
    "recovered from|passed away|died (?:of|from)|",
    "family history|runs in (?:my|the|our) family|",
    "risk of|at risk)\\b",
  ].join(""),
);
const EN_PRESENT = new RegExp(
  [
    "\\b(?:now|right now|currently|at the moment|",
    "today|tonight|this (?:morning|evening|afternoon)|",
    "just|again|still|suddenly|started|starting|",
    "getting worse|happening)\\b",
  ].join(""),
);
const ZH_PAST = new RegExp(
  [
    "以前|曾经|去年|前年|年前|小时候|",
    "过去|病史|那年|当年|多年|\\d+年|[一二两三四五六七八九十几]+年(?!级)|",
    "几年前|上个月|几个月前|既往|",
    "去世|后来没事|后来好了",
  ].join(""),
);
const ZH_PRESENT = /现在|刚才|刚刚|正在|今天|今晚|突然|马上|一直|又|还在|此刻|目前|越来越/;

/**
 * The clause puts it in the past and says nothing of now. A clause, not the sentence: in "I had a
 * stroke in 2019, now I want to drive again" the "now" belongs to another matter.
 */
export function inThePast(clause: string): boolean {
  if (EN_PAST.test(clause) && !EN_PRESENT.test(clause)) return true;
  return ZH_PAST.test(clause) && !ZH_PRESENT.test(clause);
}

// Followed by a space: "can't breathe" does not open a question.
const EN_QUESTION =
  /^\s*(?:what|what's|how|why|which|when|is|are|can|does|do|should|could|would|tell me|explain|list)(?=\s)/;
const EN_PERSON = new RegExp(
  [
    "\\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|",
    "our|us|he|he's|she|she's|his|her|him|they|",
    "they're|them|their|mom|mum|dad|son|daughter|",
    "husband|wife|baby|child|kid|toddler|friend|",
    "grandma|grandpa|father|mother|brother|sister|",
    "partner|boyfriend|girlfriend|someone|somebody|",
    "patient|colleague|coworker|neighbou?r)\\b",
  ].join(""),
);
const ZH_QUESTION = new RegExp(
  [
    "如何|怎样|怎么用|怎么使用|正确使用|",
    "有哪些|是什么|什么是|怎么预防|",
    "如何预防|怎么判断|如何判断|怎样判断|",
    "的症状|的原因|的表现|的征兆|",
    "的危害|会导致|的风险|发病率|",
    "统计|科普|区别",
  ].join(""),
);
const ZH_PERSON = new RegExp(
  [
    "我|他|她|咱|爸|妈|孩子|宝宝|儿子|",
    "女儿|老公|老婆|丈夫|妻子|朋友|",
    "家人|奶奶|爷爷|外婆|外公|姥姥|",
    "姥爷|同事|邻居|病人|有人",
  ].join(""),
);

/** A general question about nobody in particular: information, not an emergency. */
export function generalQuestion(sentence: string): boolean {
  const s = sentence.trim();
  if (EN_QUESTION.test(s) && !EN_PERSON.test(s)) return true;
  return ZH_QUESTION.test(s) && !ZH_PERSON.test(s);
}
