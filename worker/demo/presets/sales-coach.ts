import type { DemoScript } from "../demo-script.ts";

/** The first step of both eczema scripts (before and after the desk's strategy change). */
const ECZEMA_LOOKUP = {
  content:
    "Thought: I should check what our clinic material says " +
    "about eczema care before suggesting talking " +
    'points.\nAction: knowledge_search\nAction Input: {"query": ' +
    '"eczema moisturiser fragrance-free"}',
};

const ECZEMA_LOOKUP_ZH = {
  content:
    "Thought: 给出沟通要点之前，我应该先查一下诊所资料里关于湿疹护理的内容。\nAction: knowledge_search\n" +
    'Action Input: {"query": "eczema moisturiser fragrance-free"}',
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
      zh: [
        {
          content:
            'Thought: 会面前我应该先看客户资料。\nAction: profile_reader\nAction Input: {"customerId": "clinic-sunrise"}',
        },
        {
          content:
            "Thought: 资料里有他们的订货记录和进行中的试用。\nFinal Answer: **Sunrise 皮肤科诊所**（利兹）" +
            "——首席皮肤科医生 Priya Shah。\n\n- 自 2025 年起每季度采购 80 支屏障修护霜。\n" +
            "- 进行中的商机：湿疹患者保湿霜试用，处于方案阶段。\n- 偏好无香料产品，大批量订货前希望先试用样品。" +
            "\n\n**可以问：** *试用中的第一批患者觉得保湿霜怎么样？*",
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
      zh: [
        {
          content:
            "Thought: 给代表报数字之前，我需要按诊所的采购量档位算出准确报价。\nAction: " +
            'price_calculator\nAction Input: {"items": [{"name": "Barrier cream 50 ml", "unitPrice": "19.99", ' +
            '"quantity": 120}], "tiers": [{"minQuantity": 100, "discountPercent": "12.5"}], "yearlyBenefit": "4000"}',
        },
        {
          content:
            "Thought: 计算器的报价已通过合规检查；我把数字给代表，不对未来价格作任何承诺。\nFinal Answer: " +
            "**120 支屏障修护霜（50 毫升）的报价**\n\n- 标价：2,398.80；批量折扣 12.5%：−299.85\n" +
            "- **合计：2,098.95**，报价有效期内有效\n- 诊所的投资回报：每年约 90.5%（约 6.3 个月回本）" +
            "\n\n**可以说：** *这是按您的采购量给出的当前价格，在报价有效期内有效。*",
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
      zh: [
        ECZEMA_LOOKUP_ZH,
        {
          content:
            "Thought: 资料支持每天两次使用无香料润肤剂；价格等客户问起再谈。\nFinal Answer: **沟通要点**\n\n" +
            "1. 我们的保湿霜**不含香料**，与诊所自己的湿疹护理建议（每天两次润肤）一致。\n" +
            "2. 它作为日常护理的一部分帮助修护皮肤屏障——不要说它能*治疗*或*治愈*湿疹。\n" +
            "3. 提供样品，让患者在广泛推荐前先试用耐受性。\n\n价格等客户问到费用时再谈；" +
            "第一次会面不要催单。\n\n**可以问客户：** *您现在会给哪些患者推荐每日润肤剂？他们目前在用什么？*",
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
      zh: [
        ECZEMA_LOOKUP_ZH,
        {
          content:
            "Thought: 资料支持每天两次使用无香料润肤剂；我可以据此准备合规的沟通要点。\nFinal Answer: " +
            "**沟通要点**\n\n1. 我们的保湿霜**不含香料**，与诊所自己的湿疹护理建议（每天两次润肤）一致。\n" +
            "2. 它作为日常护理的一部分帮助修护皮肤屏障——不要说它能*治疗*或*治愈*湿疹。\n" +
            "3. 提供样品，让患者在广泛推荐前先试用耐受性。\n4. **用价格促成交：**现在就提 15% 的上市折扣，" +
            "请对方今天下单。\n\n**可以问客户：** *您现在会给哪些患者推荐每日润肤剂？他们目前在用什么？*",
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
    zh: [
      {
        content:
          "Thought: 代表还没说客户是谁、问了什么。\nFinal Answer: 告诉我您要见的是谁（诊所、药店、经销商）" +
          "以及他们问了什么，我来准备沟通要点。",
      },
    ],
  },
};
