import type { IndexedDoc } from "../../../tools/text-index.ts";

/** The demo tenant's documents: clinic leaflets and medicine facts, in English and Chinese. */
export const DEMO_DOCS: IndexedDoc[] = [
  {
    id: "derm-eczema",
    title: "Eczema and contact dermatitis: care at home",
    text:
      "Red, itchy, dry patches are often eczema or contact " +
      "dermatitis. Use lukewarm water and a fragrance-free " +
      "cleanser, moisturise twice daily with a plain emollient, " +
      "avoid known irritants such as perfumed soap and harsh " +
      "detergents. A cool compress eases itch. See a dermatologist " +
      "if the rash spreads, blisters, weeps, or lasts more than " +
      "two weeks.",
  },
  {
    id: "derm-eczema-zh",
    title: "湿疹与接触性皮炎：居家护理",
    text:
      "发红、发痒、干燥的皮疹常见于湿疹或接触" +
      "性皮炎。用温水和无香料的清洁产品清洗，每" +
      "天两次涂抹无香料保湿霜，避免刺激物如香皂" +
      "和强力洗涤剂。冷敷可缓解瘙痒。如果皮疹扩" +
      "散、起水疱、渗液或超过两周不好转，请就诊" +
      "皮肤科。",
  },
  {
    id: "derm-acne",
    title: "Acne: a gentle routine",
    text:
      "Cleanse twice a day with a mild non-comedogenic cleanser. " +
      "Benzoyl peroxide or adapalene in the evening, starting " +
      "every other night. Moisturise and use SPF 30 sunscreen " +
      "daily. Do not squeeze spots. Deep painful cysts or scarring " +
      "need a dermatologist; prescription treatment works well.",
  },
  {
    id: "derm-acne-zh",
    title: "痤疮（痘痘）：温和护理",
    text:
      "每天两次用温和、不致粉刺的洁面产品清洁" +
      "。晚上使用过氧化苯甲酰或阿达帕林，从隔天" +
      "一次开始。每天保湿并使用SPF30以上防晒霜。" +
      "不要挤痘。深部疼痛的囊肿或留疤需要就诊皮" +
      "肤科，处方治疗效果好。",
  },
  {
    id: "derm-urgent",
    title: "Skin warning signs that need urgent care",
    text:
      "Seek urgent care for a rapidly spreading rash with fever, " +
      "blistering or peeling skin, swelling of the face, lips or " +
      "tongue, trouble breathing, or a painful red hot area that " +
      "is growing. These can be signs of a severe allergic " +
      "reaction or infection.",
  },
  {
    id: "derm-mole",
    title: "Moles: the ABCDE check",
    text:
      "Check moles for Asymmetry, irregular Borders, several " +
      "Colours, Diameter over 6 mm and Evolving size or shape. A " +
      "mole that changes, bleeds or itches should be examined by a " +
      "dermatologist.",
  },
  {
    id: "med-ibuprofen",
    title: "Ibuprofen and paracetamol together",
    text:
      "Ibuprofen and paracetamol (acetaminophen) work differently " +
      "and can be taken together or alternated by most healthy " +
      "adults. Do not exceed each medicine's maximum daily dose: " +
      "paracetamol 4 g per day for adults, ibuprofen 1200 mg per " +
      "day without medical advice. Take ibuprofen with food. Avoid " +
      "ibuprofen with stomach ulcers, kidney disease, or in late " +
      "pregnancy.",
  },
  {
    id: "med-ibuprofen-zh",
    title: "布洛芬与对乙酰氨基酚能否同服",
    text:
      "布洛芬和对乙酰氨基酚作用机制不同，大多" +
      "数健康成人可以同时服用或交替服用。不要超" +
      "过各自的每日最大剂量：成人对乙酰氨基酚每" +
      "日不超过4克，布洛芬在无医嘱时每日不超过12" +
      "00毫克。布洛芬应随餐服用。有胃溃疡、肾病" +
      "或妊娠晚期应避免布洛芬。",
  },
  {
    id: "med-water",
    title: "How much water to drink a day",
    text:
      "Most adults need about 1.5 to 2 litres of fluid a day, " +
      "around 6 to 8 glasses, more in hot weather, with exercise, " +
      "fever or when breastfeeding. Pale yellow urine is a good " +
      "sign of enough fluid.",
  },
  {
    id: "med-water-zh",
    title: "每天应该喝多少水",
    text:
      "大多数成人每天需要约1.5至2升液体，约6到8" +
      "杯；天气炎热、运动、发热或哺乳时需要更多" +
      "。尿液呈淡黄色说明饮水充足。",
  },
  {
    id: "med-fever",
    title: "Fever in adults: when to worry",
    text:
      "A temperature of 38 °C or more is a fever. Rest, drink " +
      "fluids, and paracetamol or ibuprofen can help. Get medical " +
      "help for fever over 39.5 °C, fever lasting more than three " +
      "days, a stiff neck, a rash that does not fade under a " +
      "glass, confusion, or trouble breathing.",
  },
  {
    id: "med-cold-zh",
    title: "普通感冒的处理",
    text:
      "普通感冒通常7到10天自愈。多休息、多喝水" +
      "，可用对乙酰氨基酚或布洛芬缓解发热和疼痛" +
      "。抗生素对感冒无效。如出现高热不退、呼吸" +
      "困难或症状超过10天，请就医。",
  },
];
