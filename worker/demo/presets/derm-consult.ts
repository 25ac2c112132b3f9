import type { DemoScript } from "../demo-script.ts";
import { CRISIS_TURNS } from "./medical-qa.ts";

export const dermConsultScript: DemoScript = {
  agentId: "derm-consult",
  turns: [
    ...CRISIS_TURNS,
    {
      // Booking in the chat: the slots card; the visitor picks and confirms in it.
      when: ["book", "appointment", "预约", "挂号"],
      steps: [
        { toolCalls: [{ name: "find_slots", arguments: {} }] },
        {
          content:
            "I've put the clinic's free times **in a card** below, in your time zone. Pick one, check your " +
            "details, and confirm: the visit is booked from the card.",
        },
      ],
      zh: [
        { toolCalls: [{ name: "find_slots", arguments: {} }] },
        {
          content:
            "我已把诊所的空闲时间放在下面的**卡片**里，按您所在的时区显示。请选一个时间，核对您的信息后确认：" +
            "预约就在卡片里完成。",
        },
      ],
    },
    {
      // A photo: the vision model's findings (scripted below) become a card with the photo.
      photo: true,
      steps: [
        { toolCalls: [{ name: "analyze_skin_image", arguments: { context: "photo sent in the consult" } }] },
        {
          content:
            "Thank you for the photo. I've put what it shows on **a card with your photo**: it looks most " +
            "like an irritated, eczema-like patch, but a photo cannot confirm that. Keep the skin " +
            "moisturised, and book a visit if it spreads, blisters or hasn't settled in two weeks.",
        },
      ],
      zh: [
        { toolCalls: [{ name: "analyze_skin_image", arguments: { context: "问诊中发来的照片" } }] },
        {
          content:
            "谢谢您的照片。我已把照片所见整理成**一张附有您照片的卡片**：看起来最像受刺激的湿疹样皮损，" +
            "但仅凭照片无法确诊。请注意保湿；如果范围扩大、起水疱，或两周内没有好转，请预约就诊。",
        },
      ],
    },
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
      zh: [
        {
          content: [
            "谢谢您的描述。手臂上发红、发痒的皮疹最常见的是**接触性皮炎**或**湿疹**，通常经过简单护理就会好转：",
            "",
            "- 用温水和无香料的洁面产品清洗患处，然后轻轻拍干。",
            "- 每天两次涂抹无香料的普通保湿霜。",
            "- 尽量不要抓挠；冷敷可以缓解瘙痒。",
            "- 想一想最近皮肤接触过的新东西（肥皂、洗衣液、首饰、植物）。",
          ].join("\n"),
          toolCalls: [
            {
              name: "record_advice",
              arguments: {
                title: "舒缓并保护皮肤",
                content:
                  "用温水和无香料的洁面产品清洗，轻轻拍干，每天两次涂抹无香料的普通保湿霜。冷敷可以缓解瘙痒；尽量不要抓挠。",
                evidence: ["诊所资料：湿疹与接触性皮炎的居家护理", "保湿剂可修复湿疹和接触性皮炎的皮肤屏障"],
                severity: "info",
                category: "皮肤护理",
              },
            },
            {
              name: "record_advice",
              arguments: {
                title: "何时去看皮肤科医生",
                content:
                  "如果皮疹扩散、起水疱或渗液，或持续超过两周，请预约就诊。如有发烧、面部肿胀或呼吸困难，请立即就医。",
                evidence: ["诊所资料：需要紧急就医的皮肤警示信号"],
                severity: "caution",
                category: "后续就诊",
              },
            },
          ],
        },
        {
          content:
            "我已把这些整理成**两张建议卡片**，方便您保存。如果皮疹扩散、起水疱或持续超过两周，" +
            "请看皮肤科医生；如有发烧或面部肿胀，请尽快就医。",
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
      zh: [
        { toolCalls: [{ name: "knowledge_search", arguments: { query: "acne routine benzoyl peroxide adapalene" } }] },
        {
          content: [
            "痘痘肌的护理，**温和而坚持**胜过猛烈而断续：",
            "",
            "1. 每天早晚用温和、不致粉刺的洁面产品清洁。",
            "2. 晚上使用含*过氧化苯甲酰*或*阿达帕林*的产品，先隔天一次。",
            "3. 注意保湿，每天早上涂防晒霜（SPF 30 以上）。",
            "4. 不要挤痘——那会增加留印和留疤的风险。",
            "",
            "如果痘痘又深又痛，或已经留疤，请预约就诊：处方治疗效果很好。",
          ].join("\n"),
        },
      ],
    },
  ],
  // The scripted vision model's findings for any photo (report_skin_findings, forced by analyze_skin_image).
  forced: {
    report_skin_findings: {
      observations: [
        "A patch of pink-red skin with ill-defined borders",
        "Fine scaling on the surface; no blisters, crusts or open wounds visible",
      ],
      possibleConditions: [
        { name: "Eczema (atopic or contact dermatitis)", likelihood: "possible", why: "red, scaly, ill-defined" },
        { name: "Fungal infection (tinea)", likelihood: "less likely", why: "no clear ring with a raised edge" },
      ],
      redFlags: [],
      seeDermatologist: "routine",
      summary: "The photo shows a red, slightly scaly patch that looks irritated rather than infected.",
    },
  },
  forcedZh: {
    report_skin_findings: {
      observations: ["一片边界不清的粉红至红色皮肤", "表面有细小鳞屑；未见水疱、结痂或破损"],
      possibleConditions: [
        { name: "湿疹（特应性或接触性皮炎）", likelihood: "possible", why: "发红、脱屑、边界不清" },
        { name: "真菌感染（癣）", likelihood: "less likely", why: "没有明显的隆起边缘环" },
      ],
      redFlags: [],
      seeDermatologist: "routine",
      summary: "照片显示一片发红、略有脱屑的皮损，看起来像是受刺激，而不是感染。",
    },
  },
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
    zh: [
      {
        toolCalls: [
          {
            name: "ask_followup",
            arguments: {
              question: "是身体哪个部位？出现多久了？",
              options: ["几天", "1–2 周", "超过 2 周"],
              missing: "部位和持续时间决定建议",
            },
          },
        ],
      },
      {
        content:
          "我可以帮您处理皮疹、痘痘、痣或皮肤干燥等问题。请告诉我它在**哪里**、出现**多久**了，以及是否**痒或痛**。",
      },
    ],
  },
};
