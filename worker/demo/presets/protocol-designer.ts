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
      zh: [
        {
          toolCalls: [
            record({
              research_question: "与常规护理相比，每天使用润肤剂能否减少中度特应性皮炎患儿的湿疹发作次数？",
              rationale: "湿疹发作频繁且花费高；润肤剂便宜又安全，但在儿童中的证据并不一致。",
            }),
          ],
        },
        { content: "我已记录您的**研究问题**。请在阶段面板中核对，然后点击**完成阶段**，进入 PICO。" },
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
      zh: [
        {
          toolCalls: [
            record({
              population: "2–10 岁中度特应性皮炎患儿",
              intervention: "每日使用润肤剂，每天两次",
              outcome: "6 个月内的湿疹发作次数",
            }),
          ],
        },
        { content: "已记录**研究人群**、**干预措施**和**结局**。**对照**是什么——不每日使用润肤剂的常规护理吗？" },
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
      zh: [
        {
          toolCalls: [
            record({
              study_type: "RCT",
              allocation_ratio: 1,
              randomisation: "1:1，按年龄组分层",
              blinding: "结局评估者设盲",
            }),
          ],
        },
        { content: "一项**随机对照试验**（1:1，评估者设盲）——接下来我们计算**样本量**。" },
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
      zh: [
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
              assumptions: "常规护理组发作率 40%，润肤剂组 25%；双侧 alpha 0.05；检验效能 80%；脱落率 10%",
              n_per_group: 152,
              n_total: 304,
              n_enrol: 338,
            }),
          ],
        },
        {
          content: "每组需要 **152 名儿童**（共 304 名），考虑 10% 的脱落，计划**入组 338 名**。接下来是**终点指标**。",
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
      zh: [
        {
          toolCalls: [
            record({
              primary_endpoint: "6 个月内的湿疹发作次数",
              secondary_endpoints: ["6 个月时的 EASI 评分", "生活质量（CDLQI）", "首次发作时间"],
              assessment_times: "基线、第 1、3、6 个月",
            }),
          ],
        },
        { content: "终点指标已记录。点击**完成阶段**即可结束——之后可以复制或下载方案摘要。" },
      ],
    },
  ],
  fallback: {
    steps: [{ content: "Tell me about your study — what do you want to find out, and in whom?" }],
    zh: [{ content: "说说您的研究吧——您想弄清楚什么问题？研究对象是谁？" }],
  },
};
