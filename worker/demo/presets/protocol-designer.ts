import type { DemoScript } from "../demo-script.ts";

const record = (values: Record<string, unknown>) => ({ name: "record_stage_data", arguments: { values } });

export const protocolDesignerScript: DemoScript = {
  agentId: "protocol-designer",
  turns: [
    {
      when: ["emollient prevent", "润肤剂能预防"],
      steps: [
        {
          toolCalls: [
            record({
              research_question:
                "Does daily emollient use reduce eczema flares in children " +
                "with moderate atopic dermatitis, compared with usual care?",
              rationale:
                "Flares are frequent and costly; emollients are cheap and safe, but evidence in children is mixed.",
            }),
          ],
        },
        {
          content:
            "I've recorded your **research question**. Review it in the " +
            "stage panel, then press **Complete stage** to move on to " +
            "PICO.",
        },
      ],
    },
    {
      when: ["aged 2", "2 to 10", "2-10", "2至10岁"],
      steps: [
        {
          toolCalls: [
            record({
              population: "Children aged 2–10 years with moderate atopic dermatitis",
              intervention: "Daily emollient, applied twice a day",
              outcome: "Number of eczema flares over 6 months",
            }),
          ],
        },
        {
          content:
            "Recorded the **population**, **intervention** and " +
            "**outcome**. What is the **comparison** — usual care " +
            "without a daily emollient?",
        },
      ],
    },
    {
      when: ["randomised", "randomized", "随机"],
      steps: [
        {
          toolCalls: [
            record({
              study_type: "RCT",
              allocation_ratio: 1,
              randomisation: "1:1, stratified by age group",
              blinding: "Outcome assessors blinded",
            }),
          ],
        },
        {
          content:
            "A **randomised controlled trial** (1:1, blinded assessors) — so next we work out the **sample size**.",
        },
      ],
    },
    {
      when: ["40%", "power", "检验效能"],
      steps: [
        {
          toolCalls: [
            {
              name: "sample_size",
              arguments: { outcome: "proportions", p1: 0.4, p2: 0.25, alpha: 0.05, power: 0.8, dropout: 0.1 },
            },
          ],
        },
        {
          toolCalls: [
            record({
              outcome_type: "proportions",
              assumptions:
                "Flares in 40% (usual care) vs 25% (emollient); alpha 0.05 two-sided; power 80%; 10% dropout",
              n_per_group: 152,
              n_total: 304,
              n_enrol: 338,
            }),
          ],
        },
        {
          content:
            "You need **152 children per group** (304 in all), so plan " +
            "to **enrol 338** to allow for 10% dropout. On to the " +
            "**endpoints**.",
        },
      ],
    },
    {
      when: ["primary", "主要终点"],
      steps: [
        {
          toolCalls: [
            record({
              primary_endpoint: "Number of eczema flares over 6 months",
              secondary_endpoints: ["EASI score at 6 months", "Quality of life (CDLQI)", "Time to first flare"],
              assessment_times: "Baseline, months 1, 3 and 6",
            }),
          ],
        },
        {
          content:
            "Endpoints recorded. Press **Complete stage** to finish — " +
            "then you can copy or download the protocol summary.",
        },
      ],
    },
  ],
  fallback: {
    steps: [{ content: "Tell me about your study — what do you want to find out, and in whom?" }],
  },
};
