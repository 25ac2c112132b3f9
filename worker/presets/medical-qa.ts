import type { AgentConfigInput } from "../../shared/agent-config.ts";
import type { DemoScript } from "../llm/demo-script.ts";

/** Medical Q&A desk (seed 004): fast answers to simple questions. */
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
    "Do not ask follow-up questions unless the answer truly depends on missing information.",
    "For emergencies (chest pain, trouble breathing, stroke signs), tell the visitor to call emergency services first.",
    "Answer in the visitor's language, in short Markdown.",
  ].join("\n"),
  model: "gpt-4o-mini",
  strategy: "native",
  maxTokens: 600,
  tools: [],
};

export const medicalQaScript: DemoScript = {
  agentId: "medical-qa",
  turns: [
    {
      when: ["ibuprofen", "paracetamol", "布洛芬", "对乙酰氨基酚"],
      steps: [{
        content: "Yes — for most healthy adults **ibuprofen and paracetamol can be taken together** or alternated, because they work differently. Keep to each one's maximum daily dose, take ibuprofen with food, and avoid ibuprofen if you have stomach ulcers, kidney disease, or are in late pregnancy. Ask a pharmacist if you take other medicines.",
      }],
    },
    {
      when: ["water", "喝水", "饮水"],
      steps: [{
        content: "Most adults need about **1.5–2 litres of fluid a day** (6–8 glasses), more in hot weather or when exercising. Pale yellow urine is a good sign you're drinking enough.",
      }],
    },
  ],
  fallback: {
    steps: [{ content: "That's a good question. In short: it depends on your situation — could you tell me a little more, such as your age and any medicines you take?" }],
  },
};
