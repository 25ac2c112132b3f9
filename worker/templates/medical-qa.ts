import type { AgentConfigInput } from "../../shared/config/agent-config.ts";

/** Medical Q&A desk: simple questions take the quick path, the rest the agent loop. */
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
  // Emergencies escalate in code, whatever the model answers (the emergency guard).
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
