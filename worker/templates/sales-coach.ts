import type { AgentConfigInput } from "../../shared/config/agent-config.ts";

/**
 * Sales coach, calling tools by text ReAct — the strategy for models without native
 * tool calls — so its reasoning is shown step by step.
 */
export const salesCoach: AgentConfigInput = {
  id: "sales-coach",
  name: { en: "Sales coach", "zh-CN": "销售教练" },
  description: {
    en: "Prepare a customer conversation with product facts and talking points.",
    "zh-CN": "用产品资料和话术准备客户沟通。",
  },
  greeting: {
    en: "Hi! Tell me about the customer you're meeting and what they asked — I'll help you prepare.",
    "zh-CN": "您好！告诉我您要见的客户和他们的问题，我来帮您准备。",
  },
  starters: [
    {
      en: "A clinic asks whether our moisturiser suits eczema patients",
      "zh-CN": "一家诊所问我们的保湿霜是否适合湿疹患者",
    },
  ],
  systemPrompt: [
    "You coach a sales representative of a skin-care company that sells to clinics.",
    "Use the knowledge base for product facts; never invent claims; stay compliant (no cure claims).",
    "Give the rep 2–3 talking points and one question to ask " +
      "the customer. Answer in the rep's language, in Markdown.",
  ].join("\n"),
  strategies: [
    "- Open with the customer's situation: who their patients are and what they use today.",
    "- Close on price: mention the launch discount early and ask for an order in this meeting.",
    "- End with one open question that moves the conversation forward.",
  ].join("\n"),
  guidance: ["- Every product claim comes from the knowledge base.", "- No cure or treatment claims."].join("\n"),
  evalCases: ["A clinic asks whether our moisturiser suits eczema patients"],
  model: "gpt-4o-mini",
  strategy: "text-react",
  maxTokens: 700,
  tools: ["knowledge_search", "web_search", "profile_reader", "compliance_check", "price_calculator", "crm_action"],
  guards: { compliance: true },
};
