import type { AgentConfigInput } from "../../../shared/agent-config.ts";
import type { DemoScript } from "../demo-script.ts";
import { CRISIS_TURNS } from "./medical-qa.ts";

/** Dermatology consult (seed 000): a careful consult that records advice as cards. */
export const dermConsult: AgentConfigInput = {
  id: "derm-consult",
  name: { en: "Skin consult", "zh-CN": "皮肤问诊" },
  description: {
    en: "Describe your skin concern and get careful first advice.",
    "zh-CN": "描述您的皮肤问题，获得谨慎的初步建议。",
  },
  greeting: {
    en:
      "Hello! I'm the clinic's skin assistant. Tell me what " +
      "you're noticing — where it is, how long, and how it feels.",
    "zh-CN": "您好！我是诊所的皮肤助手。请告诉我您注" + "意到的情况：在哪里、持续多久、有什么感觉。",
  },
  starters: [
    { en: "I have a red itchy rash on my arm", "zh-CN": "我手臂上有发红发痒的皮疹" },
    { en: "How should I care for acne-prone skin?", "zh-CN": "痘痘肌应该怎么护理？" },
  ],
  systemPrompt: [
    "You are the dermatology assistant of a skin clinic. Be warm, concise and careful.",
    "Ask at most one follow-up question, and only when information needed for safe advice is truly missing.",
    "Never diagnose with certainty; say when the visitor should " +
      "see a dermatologist in person, and urgently when there are " +
      "warning signs (fever, rapidly spreading rash, blistering, " +
      "facial swelling, trouble breathing).",
    "Check the clinic's guidance with knowledge_search before advising on a condition.",
    "Whenever you give a concrete recommendation, call " +
      "record_advice once per distinct piece of advice (title, " +
      "content, evidence, severity, category) so the visitor can " +
      "keep it; then answer briefly, referring to the cards.",
    "Use ask_followup only when information needed for safe advice is truly missing.",
    "Answer in the visitor's language, in short Markdown.",
  ].join("\n"),
  model: "gpt-4o-mini",
  strategy: "native",
  maxTokens: 800,
  tools: ["knowledge_search", "record_advice", "ask_followup"],
  guards: { emergency: true, advice: true },
  // Visitors may show the rash (issue #17); the defaults: 3 a message, 4 MB, 1568 px, the default consent.
  photos: { enabled: true },
};

export const dermConsultScript: DemoScript = {
  agentId: "derm-consult",
  turns: [
    ...CRISIS_TURNS,
    {
      when: ["rash", "itch", "red", "皮疹", "痒", "红"],
      steps: [
        {
          // The answer and its advice cards in one message, as models commonly do.
          content: [
            "Thanks for describing it. A red, itchy rash on the arm is " +
              "most often **contact dermatitis** or **eczema**, and " +
              "usually settles with simple care:",
            "",
            "- Wash the area with lukewarm water and a fragrance-free cleanser, then pat dry.",
            "- Apply a plain, fragrance-free moisturiser twice a day.",
            "- Avoid scratching; a cool compress can calm the itch.",
            "- Think about anything new that touched the skin (soap, detergent, jewellery, plants).",
          ].join("\n"),
          toolCalls: [
            {
              name: "record_advice",
              arguments: {
                title: "Soothe and protect the skin",
                content:
                  "Wash with lukewarm water and a fragrance-free cleanser, " +
                  "pat dry, and apply a plain fragrance-free moisturiser twice " +
                  "a day. A cool compress eases the itch; try not to scratch.",
                evidence: [
                  "Clinic leaflet: Eczema and contact dermatitis — care at home",
                  "Emollients restore the skin barrier in eczema and contact dermatitis",
                ],
                severity: "info",
                category: "skin care",
              },
            },
            {
              name: "record_advice",
              arguments: {
                title: "When to see a dermatologist",
                content:
                  "Book a visit if the rash spreads, blisters or weeps, or " +
                  "lasts more than two weeks. Get urgent care for fever, " +
                  "facial swelling or trouble breathing.",
                evidence: ["Clinic leaflet: Skin warning signs that need urgent care"],
                severity: "caution",
                category: "follow-up",
              },
            },
          ],
        },
        {
          content:
            "I've saved this as **two advice cards** you can keep. See " +
            "a dermatologist if it spreads, blisters, or lasts more than " +
            "two weeks — and urgently if you have fever or facial " +
            "swelling.",
        },
      ],
    },
    {
      when: ["acne", "pimple", "痘", "粉刺"],
      steps: [
        { toolCalls: [{ name: "knowledge_search", arguments: { query: "acne routine benzoyl peroxide adapalene" } }] },
        {
          content: [
            "For acne-prone skin, **gentle and consistent** beats strong and occasional:",
            "",
            "1. Cleanse twice a day with a mild, non-comedogenic cleanser.",
            "2. Use a product with *benzoyl peroxide* or *adapalene* in the evening, starting every other night.",
            "3. Moisturise, and use sunscreen (SPF 30+) every morning.",
            "4. Don't squeeze spots — it raises the risk of marks and scars.",
            "",
            "If spots are deep and painful, or leave scars, book a visit: prescription treatments work well.",
          ].join("\n"),
        },
      ],
    },
  ],
  fallback: {
    steps: [
      {
        toolCalls: [
          {
            name: "ask_followup",
            arguments: {
              question: "Where on your body is it, and how long have you had it?",
              options: ["A few days", "1–2 weeks", "Longer than 2 weeks"],
              missing: "location and duration decide the advice",
            },
          },
        ],
      },
      {
        content:
          "I can help with skin concerns such as rashes, acne, moles " +
          "or dryness. Could you tell me **where** it is, **how long** " +
          "you've had it, and whether it **itches or hurts**?",
      },
    ],
  },
};
