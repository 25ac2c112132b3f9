import type { AgentConfigInput } from "../../../shared/agent-config.ts";
import type { DemoScript, DemoTurn } from "../demo-script.ts";

/** What the demo model says to a visitor in crisis (the guard's card is shown above it). */
export const CRISIS_TURNS: DemoTurn[] = [
  {
    when: ["want to live", "want to die", "kill myself"],
    intent: "emergency",
    steps: [
      {
        content:
          "I'm really glad you told me. That sounds like a lot to " +
          "carry — would you like to tell me what has been " +
          "happening? You can also talk to someone right now on the " +
          "line shown above.",
      },
    ],
  },
  {
    when: ["不想活", "想死", "自杀"],
    intent: "emergency",
    steps: [
      {
        content:
          "谢谢你愿意告诉我。听起来你承受了很多—" +
          "—愿意和我说说最近发生了什么吗？你也可以" +
          "现在就拨打上面的热线，和愿意倾听的人聊一" +
          "聊。",
      },
    ],
  },
];

/** Medical Q&A desk (seed 004): simple questions take the quick path, the rest the agent loop. */
export const medicalQa: AgentConfigInput = {
  id: "medical-qa",
  name: { en: "Health questions", "zh-CN": "健康问答" },
  description: { en: "Quick answers to everyday health questions.", "zh-CN": "快速回答日常健康问题。" },
  greeting: {
    en: "Hi! Ask me an everyday health question — about symptoms, medicines or healthy habits.",
    "zh-CN": "您好！可以问我日常健康问题：症状、药物或健康习惯。",
  },
  starters: [
    { en: "Can I take ibuprofen with paracetamol?", "zh-CN": "布洛芬和对乙酰氨基酚可以一起吃吗？" },
    { en: "How much water should I drink a day?", "zh-CN": "每天应该喝多少水？" },
  ],
  systemPrompt: [
    "You answer everyday health questions for a medical Q&A desk: direct, accurate, short.",
    "Search the knowledge base first; use web search for what it does not cover. Cite web sources by URL.",
    "Call ask_followup only when the answer truly depends on " +
      "information you do not have; otherwise answer with sensible " +
      "assumptions stated.",
    "For emergencies (chest pain, trouble breathing, stroke signs), tell the visitor to call emergency services first.",
    "Answer in the visitor's language, in short Markdown.",
  ].join("\n"),
  model: "gpt-4o-mini",
  strategy: "native",
  maxTokens: 600,
  tools: ["knowledge_search", "web_search", "ask_followup"],
  // Emergencies escalate in code, whatever the model answers (issue #13).
  guards: { emergency: true, advice: true },
  router: {
    intents: [
      { id: "symptom_consult", description: "a question about a common symptom and what to do" },
      { id: "medicine_info", description: "a question about a medicine: use, dose, combination, side effects" },
      { id: "health_advice", description: "a general healthy-living question (diet, sleep, water, exercise)" },
      {
        id: "emergency",
        description:
          "possible emergency: chest pain, trouble breathing, stroke signs, severe bleeding, suicidal thoughts",
      },
      {
        id: "complex_case",
        description: "several conditions or medicines, test results to interpret, or a decision needing several steps",
      },
    ],
    quickIntents: ["symptom_consult", "medicine_info", "health_advice"],
    minConfidence: 0.7,
  },
};

const IBUPROFEN_ANSWER =
  "Yes — for most healthy adults **ibuprofen and " +
  "paracetamol can be taken together** or alternated, because " +
  "they work differently.\n\n- Keep to each one's maximum " +
  "daily dose (paracetamol 4 g; ibuprofen 1,200 mg without " +
  "medical advice).\n- Take ibuprofen with food.\n- Avoid " +
  "ibuprofen with stomach ulcers, kidney disease, or in late " +
  "pregnancy.\n\nAsk a pharmacist if you take other medicines. " +
  "Source: https://www.example-pharmacy.org/paracetamol-ibuprof" +
  "en";

export const medicalQaScript: DemoScript = {
  agentId: "medical-qa",
  turns: [
    {
      // A model that plays an emergency down: the demo shows the guard's card holds regardless.
      when: ["pressure in my chest", "胸口发紧"],
      intent: "symptom_consult",
      steps: [
        {
          content:
            "That sounds like a pulled muscle — **nothing to worry " +
            "about**. Rest, and it should ease in a day or two.",
        },
      ],
    },
    ...CRISIS_TURNS,
    {
      when: ["chest pain", "can't breathe", "cannot breathe", "胸痛", "呼吸困难"],
      intent: "emergency",
      steps: [
        {
          content:
            "**This could be an emergency. Call your local emergency " +
            "number (112 / 911 / 120) now**, or have someone take you to " +
            "the nearest emergency department. Don't drive yourself. If " +
            "you have aspirin and are not allergic, chewing one adult " +
            "tablet may help while you wait for help.",
        },
      ],
    },
    {
      when: ["ibuprofen", "paracetamol", "布洛芬", "对乙酰氨基酚"],
      intent: "medicine_info",
      steps: [
        { toolCalls: [{ name: "knowledge_search", arguments: { query: "ibuprofen paracetamol together" } }] },
        { toolCalls: [{ name: "web_search", arguments: { query: "take paracetamol and ibuprofen together" } }] },
        { content: IBUPROFEN_ANSWER },
      ],
    },
    {
      when: ["water", "喝水", "饮水", "多少水"],
      intent: "health_advice",
      steps: [
        { toolCalls: [{ name: "knowledge_search", arguments: { query: "how much water to drink a day" } }] },
        {
          content:
            "Most adults need about **1.5–2 litres of fluid a day** " +
            "(6–8 glasses), more in hot weather, with exercise or " +
            "fever. Pale yellow urine is a good sign you're drinking " +
            "enough.",
        },
      ],
    },
  ],
  fallback: {
    intent: "unclear",
    steps: [
      {
        toolCalls: [
          {
            name: "ask_followup",
            arguments: {
              question:
                "Could you tell me a little more — what symptom or " + "medicine is this about, and for whom (age)?",
              missing: "the question does not say what it is about",
            },
          },
        ],
      },
      { content: "Thanks — with that I can help. What would you like to know?" },
    ],
  },
};
