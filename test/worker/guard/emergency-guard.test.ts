import { describe, expect, it } from "vitest";
import { checkEmergency } from "../../../worker/guard/emergency-guard.ts";
import { normalizeText } from "../../../worker/guard/normalize.ts";

/** The deterministic layer alone: pure, no I/O. The labelled set in bench:safety measures it at scale. */
const category = (text: string) => {
  const v = checkEmergency(text);
  return v.emergency ? v.category : null;
};

describe("checkEmergency", () => {
  it.each([
    ["It feels like an elephant is sitting on my chest", "cardiac"],
    ["my face went numb on one side and my speech is slurred", "stroke"],
    ["she's wheezing and can't catch her breath", "breathing"],
    ["I cut my leg on glass and it won't stop bleeding", "bleeding"],
    ["ate a cookie with peanuts and my throat is closing", "anaphylaxis"],
    ["my 3 year old drank some bleach", "poisoning"],
    ["he collapsed and isn't responding", "collapse"],
    ["I'm going to kill him, I swear", "harm_to_others"],
    ["宝宝误服了妈妈的降压药", "poisoning"],
    ["我爸突然说话含糊不清，嘴也歪了", "stroke"],
    ["孩子被蜜蜂蛰了以后嘴唇肿起来了", "anaphylaxis"],
  ])("escalates %j as %s", (text, expected) => {
    expect(category(text)).toBe(expected);
  });

  it("reads common typos as the words they mean", () => {
    expect(normalizeText("cant breath, sucidal, chets")).toBe("can't breath, suicidal, chest");
    expect(category("i cnat breathe")).toBe(null); // two edits away: not guessed
    expect(category("im so sucidal tonight")).toBe("self_harm");
    expect(category("hevy presure in my chets")).toBe("cardiac");
  });

  it("gives self-harm the crisis variant and the rest the emergency one", () => {
    expect(checkEmergency("I don't want to be alive anymore")).toMatchObject({
      category: "self_harm",
      variant: "crisis",
    });
    expect(checkEmergency("My chest hurts really bad")).toMatchObject({ category: "cardiac", variant: "emergency" });
  });

  it.each([
    "No chest pain, no shortness of breath, just a runny nose",
    "I don't have chest pain but my back aches",
    "我没有胸痛，就是有点咳嗽",
    "My grandfather had a stroke in 2015; should I be screened?",
    "I used to self-harm as a teenager and the scars itch",
    "他十年前做过心脏手术，现在恢复得很好",
    "What are the warning signs of a stroke?",
    "中风的症状有哪些？",
    "Where can I buy a chest of drawers for the clinic?",
    "This traffic is killing me, I'll be 10 minutes late",
    "笑死我了，这个视频太好笑",
    "The chest pain went away after I burped",
    "I get short of breath when I climb stairs",
  ])("does not escalate %j", (text) => {
    expect(category(text)).toBe(null);
  });
});
