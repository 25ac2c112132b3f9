import type { DemoScript } from "../demo-script.ts";

/** The first step of both eczema scripts (before and after the desk's strategy change). */
const ECZEMA_LOOKUP = {
  content:
    "Thought: I should check what our clinic material says " +
    "about eczema care before suggesting talking " +
    'points.\nAction: knowledge_search\nAction Input: {"query": ' +
    '"eczema moisturiser fragrance-free"}',
};

export const salesCoachScript: DemoScript = {
  agentId: "sales-coach",
  turns: [
    {
      // The signed-in rep's own customer (the sales page signs in rep-ana; sales-profiles.ts).
      when: ["sunrise", "brief me", "客户资料"],
      steps: [
        {
          content:
            "Thought: I should read the customer's profile before the " +
            'meeting.\nAction: profile_reader\nAction Input: {"customerId": ' +
            '"clinic-sunrise"}',
        },
        {
          content:
            "Thought: The profile shows their order history and the open " +
            "trial.\nFinal Answer: **Sunrise Dermatology** (Leeds) — Dr " +
            "Priya Shah, lead dermatologist.\n\n- Buys 80 tubes of " +
            "barrier cream a quarter since 2025.\n- Open deal: the " +
            "moisturiser trial for eczema patients, at proposal.\n- " +
            "Prefers fragrance-free products and samples before larger " +
            "orders.\n\n**Ask:** *How did the first patients on the " +
            "trial find the moisturiser?*",
        },
      ],
    },
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
