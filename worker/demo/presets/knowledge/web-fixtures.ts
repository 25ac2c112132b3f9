import type { WebResult } from "../../../../shared/tools/web-search.ts";

/** Offline stand-ins for web search results (used only when no TAVILY_API_KEY is set). */
export const WEB_FIXTURES: WebResult[] = [
  {
    title: "Atopic dermatitis (eczema) — symptoms and causes",
    url: "https://www.example-health.org/eczema",
    snippet:
      "Eczema makes skin red and itchy. It's common in children " +
      "but can occur at any age. Moisturisers and avoiding " +
      "triggers help; flares may need a steroid cream.",
  },
  {
    title: "Contact dermatitis — overview",
    url: "https://www.example-health.org/contact-dermatitis",
    snippet:
      "Contact dermatitis is a red, itchy rash caused by direct " +
      "contact with a substance or an allergic reaction to it. It " +
      "isn't contagious. Avoid the cause; soothing creams help.",
  },
  {
    title: "Acne treatment guidelines (summary)",
    url: "https://www.example-derm.org/acne-guidelines",
    snippet:
      "Topical retinoids and benzoyl peroxide are first-line for " +
      "mild to moderate acne; combination therapy improves " +
      "results; oral options for severe acne.",
  },
  {
    title: "Can you take paracetamol and ibuprofen together?",
    url: "https://www.example-pharmacy.org/paracetamol-ibuprofen",
    snippet:
      "Adults can take paracetamol and ibuprofen at the same time " +
      "if needed, within their usual doses. Don't take ibuprofen " +
      "if you have had stomach ulcers.",
  },
  {
    title: "Water: how much should you drink every day?",
    url: "https://www.example-health.org/water-intake",
    snippet:
      "Adequate daily fluid intake is about 2.7 litres for women " +
      "and 3.7 litres for men from all drinks and food; about 20% " +
      "comes from food.",
  },
  {
    title: "Fever: first aid",
    url: "https://www.example-health.org/fever",
    snippet:
      "Most fevers go away in a few days. Seek care for a " +
      "temperature of 39.4 °C or higher, a stiff neck, confusion, " +
      "a rash, or trouble breathing.",
  },
  {
    title: "湿疹的护理与治疗",
    url: "https://www.example-health.cn/shizhen",
    snippet:
      "湿疹表现为皮肤发红、瘙痒、干燥。坚持保" + "湿、避免诱因是基础治疗，急性期可在医生指" + "导下外用激素药膏。",
  },
  {
    title: "布洛芬和对乙酰氨基酚可以一起吃吗",
    url: "https://www.example-health.cn/buluofen",
    snippet: "成人在需要时可在常规剂量内同时或交替使" + "用布洛芬和对乙酰氨基酚；有胃溃疡史者应避" + "免布洛芬。",
  },
];
