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

const IBUPROFEN_ANSWER_ZH =
  "可以——对大多数健康成年人来说，**布洛芬和对乙酰氨基酚可以同时服用**或交替服用，" +
  "因为它们的作用方式不同。\n\n- 每种药都不要超过每日最大剂量（对乙酰氨基酚 4 克；" +
  "未经医嘱布洛芬 1200 毫克）。\n- 布洛芬请随餐服用。\n- 有胃溃疡、肾病或处于妊娠晚期时" +
  "不要服用布洛芬。\n\n如果您还在服用其他药物，请咨询药剂师。来源：" +
  "https://www.example-pharmacy.org/paracetamol-ibuprofen";

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
      zh: [{ content: "听起来像是肌肉拉伤——**不用担心**。休息一下，一两天就会缓解。" }],
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
      zh: [
        {
          content:
            "**这可能是急症。请立即拨打当地急救电话（120 / 112 / 911）**，或请人送您去最近的急诊科，" +
            "不要自己开车。如果手边有阿司匹林且您不过敏，在等待救援时嚼服一片成人剂量可能有帮助。",
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
      zh: [
        { toolCalls: [{ name: "knowledge_search", arguments: { query: "ibuprofen paracetamol together" } }] },
        { toolCalls: [{ name: "web_search", arguments: { query: "take paracetamol and ibuprofen together" } }] },
        { content: IBUPROFEN_ANSWER_ZH },
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
      zh: [
        { toolCalls: [{ name: "knowledge_search", arguments: { query: "how much water to drink a day" } }] },
        {
          content:
            "大多数成年人每天需要约 **1.5–2 升液体**（6–8 杯），天气炎热、运动或发烧时要多喝一些。" +
            "尿液呈淡黄色，说明您喝得够了。",
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
    zh: [
      {
        toolCalls: [
          {
            name: "ask_followup",
            arguments: {
              question: "能再多说一点吗——是关于什么症状或药物的？是谁（年龄）？",
              missing: "问题没有说明是关于什么",
            },
          },
        ],
      },
      { content: "谢谢——有了这些我就能帮您了。您想了解什么？" },
    ],
  },
};
