import { describe, expect, it } from "vitest";
import { EMERGENCY_CATEGORIES } from "../../../shared/wire/protocol.ts";
import { checkEmergency } from "../../../worker/guard/emergency-guard.ts";
import { escalationText } from "../../../worker/guard/escalation-text.ts";
import { matchSituation } from "../../../worker/guard/situation-guard.ts";
import { normalizeText } from "../../../worker/guard/normalize.ts";
import { SITUATION_MODELS } from "../../../worker/guard/situations/index.ts";

/** The clinical model: situations recognised by signs in combination, not by one phrasing each. */
const situation = (text: string) => matchSituation(normalizeText(text))?.situation ?? null;
const verdict = (text: string) => {
  const v = checkEmergency(text);
  return v.emergency ? v.situation : null;
};

describe("situations by their signs", () => {
  it.each([
    // Severe drug reactions: epidermal loss with mucosal involvement, angioedema on a new medicine.
    ["two weeks into allopurinol my skin is blistering and there are raw sores inside my mouth", "drug_reaction"],
    ["my tongue and lips keep swelling since the doctor put me on ramipril", "drug_reaction"],
    ["服了卡马西平以后全身起水疱脱皮，嘴唇溃烂", "drug_reaction"],
    // Sepsis and severe infection.
    ["temp 39.5 and these dark purple dots on his legs stay when I press a glass on them", "sepsis"],
    ["the red patch from the insect bite is spreading fast up my leg and I am burning up", "sepsis"],
    ["宝宝湿疹的地方突然冒出一颗颗凹陷的小水泡", "sepsis"],
    // Burns and chemicals.
    ["splashed oven cleaner into my eye and cannot open it", "burns"],
    ["孩子打翻了开水，前胸后背一大片起泡", "burns"],
    // Poisoning and ingestion.
    ["my 2 year old swallowed a button battery from the remote", "poisoning"],
    ["the CO alarm went off and the whole family has headaches and feels sick", "poisoning"],
    // Neurological, without the word stroke.
    ["dad's mouth is suddenly crooked and his words are coming out all jumbled", "neuro"],
    ["she fell and hit her head, she takes warfarin", "neuro"],
    // Self-harm said without the word.
    ["I've written notes to my kids, they will be better off without me", "self_harm"],
    // Obstetric.
    ["34 weeks and I haven't felt the baby move since yesterday", "obstetric"],
    // Infants and children.
    ["my 5 week old is 38.4 tonight", "child"],
    // Heat and gas.
    ["he was working outside all day in the heat, now confused and he stopped sweating", "heat_gas"],
    ["the flat smells of gas and my mum is dizzy and vomiting", "heat_gas"],
  ])("%j is %s", (text, expected) => {
    expect(situation(text)).toBe(expected);
    expect(checkEmergency(text).emergency).toBe(true);
  });

  it.each([
    // One sign alone is not the situation: a blister, a new medicine, a warm day.
    "I got a blister from my new shoes, should I pop it?",
    "I just started a new antibiotic, can I drink coffee with it?",
    "it's really hot today, what SPF should I use?",
    // The same signs in the past, negated, or asked about in general.
    "years ago I had a reaction to lamotrigine with blisters in my mouth, is this cream safe?",
    "no fever, no spreading, just a small red bump from a bite",
    "what are the signs of necrotising fasciitis?",
    // Framed as a story, the news or a lesson.
    "in the show the character's skin peels off after a new drug, is that realistic?",
    "I saw in the news that a family got carbon monoxide poisoning from a heater",
    "for my first aid course: what should you do if someone is choking",
    // Idioms and shop talk.
    "这个月业绩差到要跳楼大拍卖了",
    "the app keeps freezing and is unresponsive",
    "头有点晕，是不是没睡好",
  ])("%j stays quiet", (text) => {
    expect(verdict(text)).toBe(null);
  });

  it("reads traditional characters and Cantonese as the simplified rules do", () => {
    expect(normalizeText("個女食咗我啲安眠藥")).toBe("个女吃了我些安眠药");
    expect(situation("阿爺跌親撞到頭 佢食緊薄血藥 而家好眼瞓")).toBe("neuro");
  });

  it("needs each sign on words of its own", () => {
    // "头晕" is faintness; it cannot also be the shock sign that would make it a collapse.
    expect(situation("头晕")).toBe(null);
    expect(situation("头晕，冷汗，脸色苍白")).toBe("circulation");
  });

  it("grounds every situation in published sources and gives every card a first step", () => {
    for (const model of SITUATION_MODELS) {
      expect(model.sources.length, model.id).toBeGreaterThan(0);
      expect(model.combinations.length, model.id).toBeGreaterThan(0);
    }
    for (const category of EMERGENCY_CATEGORIES) {
      for (const lang of ["en", "zh-CN"]) expect(escalationText(category, lang).body.length).toBeGreaterThan(10);
    }
  });
});
