import type { EmergencyCategory } from "../../shared/wire/protocol.ts";
import type { Escalation } from "../../shared/session/session-events.ts";

export type Lang = "en" | "zh-CN";

export const cardLanguage = (language: string): Lang => (language.startsWith("zh") ? "zh-CN" : "en");

/**
 * What the urgent card says to do now. The crisis variant listens and points to a person to talk
 * to; it gives no first-aid steps. The emergency variant is short: call, then one safe step.
 */
const TITLE: Record<"emergency" | "crisis", Record<Lang, string>> = {
  emergency: { en: "This may be an emergency", "zh-CN": "这可能是紧急情况" },
  crisis: { en: "You don't have to go through this alone", "zh-CN": "你不必独自面对这些" },
};

const CRISIS_BODY: Record<Lang, string> = {
  en:
    "It sounds like you are carrying something very heavy right " +
    "now, and I'm glad you said it. You can talk to someone " +
    "trained to listen, any time. If you might act on these " +
    "thoughts or are in danger now, call the emergency number.",
  "zh-CN":
    "听起来你现在承受着很沉重的东西，谢谢你" +
    "愿意说出来。随时可以打电话和受过训练的人" +
    "聊一聊。如果你可能会伤害自己，或现在有危" +
    "险，请立即拨打急救电话。",
};

const STEP: Record<Exclude<EmergencyCategory, "self_harm">, Record<Lang, string>> = {
  cardiac: {
    en: "Stop what you are doing and sit down. Do not drive yourself.",
    "zh-CN": "停下正在做的事，坐下休息，不要自己开车。",
  },
  stroke: {
    en: "Note the time the signs began. Do not give food or drink.",
    "zh-CN": "记下症状开始的时间，不要给吃喝。",
  },
  breathing: { en: "Sit upright and loosen tight clothing.", "zh-CN": "保持坐直，松开紧身衣物。" },
  bleeding: {
    en: "Press firmly on the wound with a clean cloth and keep pressing.",
    "zh-CN": "用干净的布用力按住伤口，持续按压。",
  },
  anaphylaxis: {
    en: "Use an adrenaline auto-injector if there is one.",
    "zh-CN": "如有肾上腺素笔，立即使用。",
  },
  poisoning: {
    en: "Keep the container or packet. Do not make anyone vomit.",
    "zh-CN": "保留药瓶或包装，不要催吐。",
  },
  collapse: {
    en: "Check breathing; if they are not breathing, start CPR when told to.",
    "zh-CN": "检查呼吸；如果没有呼吸，按调度员指导做心肺复苏。",
  },
  seizure: {
    en: "Move things away from them and do not hold them down or put anything in their mouth.",
    "zh-CN": "移开周围的硬物，不要按住患者，不要往嘴里塞东西。",
  },
  sepsis: {
    en: "Say it may be sepsis or meningitis. Do not wait for the rash or fever to change.",
    "zh-CN": "告诉医生可能是脓毒症或脑膜炎，不要等皮疹或发烧变化。",
  },
  skin_reaction: {
    en: "Stop the new medicine and bring it with you. Do not burst blisters.",
    "zh-CN": "停用新药并带上药盒，不要弄破水疱。",
  },
  burn: {
    en: "Rinse with cool running water for 20 minutes (the eye too, if it was splashed). Remove what is soaked.",
    "zh-CN": "用流动的凉水冲洗20分钟（溅入眼睛也要冲洗），脱去被浸湿的衣物。",
  },
  obstetric: {
    en: "Lie on your left side while you wait, and keep your maternity notes with you.",
    "zh-CN": "等待时向左侧躺，带上产检资料。",
  },
  heat: {
    en: "Move them somewhere cool and cool them with water and fanning.",
    "zh-CN": "把患者移到阴凉处，用水擦身和扇风降温。",
  },
  gas: {
    en: "Get everyone out into fresh air now; do not switch anything on or off.",
    "zh-CN": "立即让所有人到室外通风处，不要开关任何电器。",
  },
  cold: {
    en: "Move them somewhere warm and wrap them in blankets; warm them slowly.",
    "zh-CN": "把患者移到温暖处，用毯子包裹，慢慢复温。",
  },
  vascular: {
    en: "Call the clinic that injected you too, and do not massage or apply heat until told to.",
    "zh-CN": "同时联系为你注射的机构，在医生指导前不要按摩或热敷。",
  },
  harm_to_others: {
    en: "Move away from anyone who may be hurt, and keep yourself safe.",
    "zh-CN": "远离可能受到伤害的人，先确保自身安全。",
  },
  circulation: {
    en: "Sit or lie down and do not drive yourself. Press firmly on any bleeding with a clean cloth.",
    "zh-CN": "坐下或躺下，不要自己开车。如有出血，用干净的布用力按住。",
  },
  neuro: {
    en: "Note the time the signs began. Give no food or drink, and do not hold down someone having a seizure.",
    "zh-CN": "记下症状开始的时间。不要给吃喝，有人抽搐时不要按住他。",
  },
  drug_reaction: {
    en: "Take no more of the new medicine. Use an adrenaline auto-injector if there is one.",
    "zh-CN": "不要再用新开始的药物。如有肾上腺素笔，立即使用。",
  },
  child: {
    en: "Stay with the child and keep them warm; give no food, drink or medicine.",
    "zh-CN": "守在孩子身边并注意保暖；不要给吃喝或药物。",
  },
  heat_gas: {
    en: "Get into fresh air or a cool place now, and do not go back in.",
    "zh-CN": "立即到空气流通或凉爽的地方，不要再回去。",
  },
};

const CALL: Record<Lang, string> = { en: "Call the emergency number now.", "zh-CN": "请立即拨打急救电话。" };

export function escalationText(category: EmergencyCategory, language: string): { title: string; body: string } {
  const lang = cardLanguage(language);
  if (category === "self_harm") return { title: TITLE.crisis[lang], body: CRISIS_BODY[lang] };
  return { title: TITLE.emergency[lang], body: `${CALL[lang]} ${STEP[category][lang]}` };
}

/**
 * Told to the model with the turn (a system message): it still answers, in its own words, but may
 * not play the emergency down — the visitor already sees the card.
 */
export function modelNote(category: EmergencyCategory, numbers: string[]): string {
  const crisis = category === "self_harm";
  return [
    `SAFETY NOTICE: the visitor's latest message may describe an emergency (${category.replace(/_/g, " ")}).`,
    `An urgent card is already shown above your reply with these numbers: ${numbers.join(", ")}.`,
    "Do not contradict it, do not say there is nothing to worry about, and do not suggest waiting.",
    crisis
      ? "Answer with warmth: acknowledge what they said, encourage " +
        "them to reach the crisis line or someone they trust; give " +
        "no methods and no first-aid instructions."
      : "Tell them to call the emergency number first, briefly, then answer what they asked.",
  ].join(" ");
}

/** The note for an escalation already raised (a later step of the turn, the model's call answered). */
export const escalationNote = (e: Pick<Escalation, "category" | "contacts">) =>
  modelNote(
    e.category,
    e.contacts.map((c) => `${c.label} ${c.number}`),
  );

/**
 * The card as the reply's first words, for a client that does not read Parley's stream extension
 * (any OpenAI-compatible client): the title, what to do, the numbers as a list; paragraphs apart,
 * so it reads the same as plain text and as Markdown, and the model's answer follows as its own.
 */
export function escalationAsText(e: Pick<Escalation, "title" | "body" | "contacts">, language: string): string {
  const colon = cardLanguage(language) === "zh-CN" ? "：" : ": ";
  const numbers = e.contacts.map((c) => `- ${c.label}${colon}${c.number}`).join("\n");
  return `**${e.title}**\n\n${e.body}\n\n${numbers}\n\n`;
}
