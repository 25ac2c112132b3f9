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
    },
    {
      // A photo (issue #17): the vision model's findings (scripted below) become a card with the photo.
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
