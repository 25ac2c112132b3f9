import type { AgentConfigInput } from "../../../shared/agent-config.ts";
import type { DemoScript } from "../demo-script.ts";

/** The first step of both eczema scripts (before and after the desk's strategy change). */
const ECZEMA_LOOKUP = {
  content:
    "Thought: I should check what our clinic material says " +
    "about eczema care before suggesting talking " +
    'points.\nAction: knowledge_search\nAction Input: {"query": ' +
    '"eczema moisturiser fragrance-free"}',
};

/**
 * Sales coach (seed 002), calling tools by text ReAct — the strategy for models without native
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
  tools: ["knowledge_search", "web_search", "compliance_check", "price_calculator", "crm_action"],
  guards: { compliance: true },
};

export const salesCoachScript: DemoScript = {
  agentId: "sales-coach",
  turns: [
    {
      when: ["quote", "报价"],
      steps: [
        {
          content:
            "Thought: I need an exact quote with the clinic's volume " +
            "tier before I give the rep a number.\nAction: " +
            'price_calculator\nAction Input: {"items": [{"name": ' +
            '"Barrier cream 50 ml", "unitPrice": "19.99", "quantity": ' +
            '120}], "tiers": [{"minQuantity": 100, "discountPercent": ' +
            '"12.5"}], "yearlyBenefit": "4000"}',
        },
        {
          content:
            "Thought: The calculator's quote passed compliance; I give " +
            "the rep its figures and no promise about future " +
            "prices.\nFinal Answer: **Quote for 120 × Barrier cream 50 " +
            "ml**\n\n- List: 2,398.80; volume discount 12.5 %: " +
            "−299.85\n- **Total: 2,098.95**, valid until the quote " +
            "expires\n- ROI for the clinic: about 90.5 % a year (paid " +
            "back in about 6.3 months)\n\n**Say:** *This is our current " +
            "price for your volume, valid for the quote's period.*",
        },
      ],
    },
    {
      // The same question once the strategies say price waits for the customer (the desk demo's edit).
      when: ["eczema", "moisturi", "湿疹", "保湿"],
      system: ["only when the customer asks"],
      steps: [
        ECZEMA_LOOKUP,
        {
          content:
            "Thought: The leaflet supports fragrance-free emollients " +
            "twice daily; price waits until the customer asks.\nFinal " +
            "Answer: **Talking points**\n\n1. Our moisturiser is " +
            "**fragrance-free**, matching the clinic's own eczema care " +
            "advice (emollient twice a day).\n2. It supports the skin " +
            "barrier as part of a routine — avoid any claim that it " +
            "*treats* or *cures* eczema.\n3. Offer samples so patients " +
            "can test tolerance before recommending it widely.\n\nLeave " +
            "price for when they ask about cost; don't push for an order " +
            "in this first meeting.\n\n**Ask the customer:** *Which " +
            "patients would you recommend a daily emollient to today, " +
            "and what do they use now?*",
        },
      ],
    },
    {
      when: ["eczema", "moisturi", "湿疹", "保湿"],
      steps: [
        ECZEMA_LOOKUP,
        {
          content:
            "Thought: The leaflet supports fragrance-free emollients " +
            "twice daily; I can build compliant talking points on " +
            "that.\nFinal Answer: **Talking points**\n\n1. Our " +
            "moisturiser is **fragrance-free**, matching the clinic's " +
            "own eczema care advice (emollient twice a day).\n2. It " +
            "supports the skin barrier as part of a routine — avoid " +
            "any claim that it *treats* or *cures* eczema.\n3. Offer " +
            "samples so patients can test tolerance before recommending " +
            "it widely.\n4. **Close on price:** mention the 15% launch " +
            "discount now and ask for an order today.\n\n**Ask the " +
            "customer:** *Which patients would you recommend a daily " +
            "emollient to today, and what do they use now?*",
        },
      ],
    },
  ],
  fallback: {
    steps: [
      {
        content:
          "Thought: The rep has not said who the customer is or what " +
          "they asked.\nFinal Answer: Tell me who you're meeting " +
          "(clinic, pharmacy, distributor) and what they asked, and " +
          "I'll prepare talking points.",
      },
    ],
  },
};
