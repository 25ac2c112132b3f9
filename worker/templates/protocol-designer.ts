import type { AgentConfigInput } from "../../shared/config/agent-config.ts";
import type { LocalizedText } from "../../shared/config/localized-text.ts";

const t = (en: string, zh: string): LocalizedText => ({ en, "zh-CN": zh });

/**
 * Clinical-research protocol designer, a stage workflow: scientific question -> PICO -> study design ->
 * sample size -> endpoints, each stage with its fields, checks, transition and action cards.
 */
export const protocolDesigner: AgentConfigInput = {
  id: "protocol-designer",
  name: t("Protocol designer", "研究方案设计"),
  description: t(
    "Design a clinical study step by step, from question to endpoints.",
    "从研究问题到终点指标，一步步设计临床研究。",
  ),
  greeting: t(
    "Hello! I'll help you design your study in five stages: " +
      "question, PICO, design, sample size and endpoints. What " +
      "question do you want to answer?",
    "您好！我会分五个阶段帮您设计研究：研究" + "问题、PICO、研究设计、样本量和终点指标。" + "您想回答什么问题？",
  ),
  starters: [t("Does a daily emollient prevent eczema flares in children?", "每天使用润肤剂能预防儿童湿疹发作吗？")],
  systemPrompt: [
    "You are a methodologist helping a clinical researcher design a study protocol, one stage at a time.",
    "Be concise and concrete. Ask for what the current stage still needs; suggest, but let the researcher decide.",
    "Use sample_size to compute sample sizes; never estimate them in your head.",
    "Answer in the researcher's language, in short Markdown.",
  ].join("\n"),
  model: "gpt-4o-mini",
  strategy: "native",
  maxTokens: 900,
  maxSteps: 6,
  tools: [],
  stages: [
    {
      id: "question",
      name: t("Scientific question", "研究问题"),
      order: 1,
      instruction: "Help the researcher state one answerable research question and why it matters.",
      fields: [
        {
          key: "research_question",
          label: t("Research question", "研究问题"),
          type: "text",
          description: "one sentence, ideally naming population, intervention, comparison and outcome",
        },
        { key: "rationale", label: t("Why it matters", "研究意义"), type: "text" },
      ],
      required: ["research_question"],
      next: "pico",
      transition: "user_confirm",
      rules: [
        {
          id: "question-length",
          kind: "min_length",
          field: "research_question",
          value: 30,
          severity: "warning",
          action: "warn",
          message: t("The question is very short.", "研究问题偏短。"),
          suggestion: t("Name the population, the intervention and the outcome.", "请写明研究人群、干预措施和结局。"),
        },
        {
          id: "question-answerable",
          kind: "prompt",
          field: "research_question",
          template:
            "Is this research question specific enough to be answered by one study? Question: {{research_question}}",
          severity: "info",
          action: "log",
          message: t("Answerability check.", "可回答性检查。"),
        },
      ],
    },
    {
      id: "pico",
      name: t("PICO", "PICO"),
      order: 2,
      instruction:
        "Break the question into Population, Intervention, Comparison and Outcome. Ask for any that are missing.",
      fields: [
        { key: "population", label: t("Population", "研究人群 (P)"), type: "string" },
        { key: "intervention", label: t("Intervention", "干预措施 (I)"), type: "string" },
        { key: "comparison", label: t("Comparison", "对照 (C)"), type: "string" },
        { key: "outcome", label: t("Outcome", "结局 (O)"), type: "string" },
        { key: "similar_trials", label: t("Similar registered trials", "已注册的相似试验"), type: "number" },
      ],
      required: ["population", "intervention", "comparison", "outcome"],
      next: "design",
      transition: "user_confirm",
      actionCards: [
        {
          id: "pubmed",
          type: "deep_link",
          title: t("Search PubMed for this PICO", "在 PubMed 检索该 PICO"),
          url: "https://pubmed.ncbi.nlm.nih.gov/?term={population}+{intervention}+{outcome}",
          resultMapping: {},
        },
        {
          id: "registry",
          type: "api_call",
          title: t("Check the trial registry", "查询临床试验注册库"),
          description: t("Counts registered trials like yours.", "统计与您相似的已注册试验。"),
          endpoint: "builtin:trial-registry",
          params: { population: "population", intervention: "intervention" },
          resultMapping: { similar_trials: "similar_trials" },
        },
      ],
    },
    {
      id: "design",
      name: t("Study design", "研究设计"),
      order: 3,
      instruction: "Choose the study type and its key features (randomisation, allocation ratio, blinding).",
      fields: [
        {
          key: "study_type",
          label: t("Study type", "研究类型"),
          type: "enum",
          options: ["RCT", "cohort", "case-control", "cross-sectional"],
        },
        {
          key: "allocation_ratio",
          label: t("Allocation ratio (group 2 : group 1)", "分配比例"),
          type: "number",
          min: 0.1,
          max: 10,
        },
        { key: "randomisation", label: t("Randomisation", "随机化"), type: "string" },
        { key: "blinding", label: t("Blinding", "盲法"), type: "string" },
      ],
      required: ["study_type"],
      next: "endpoints",
      transition: "condition",
      // A randomised trial needs a sample size; observational designs go straight to endpoints.
      conditions: [
        { field: "study_type", op: "eq", value: "RCT", next: "sample_size" },
        { field: "study_type", op: "exists", next: "endpoints" },
      ],
    },
    {
      id: "sample_size",
      name: t("Sample size", "样本量"),
      order: 4,
      instruction:
        "Agree the assumptions (outcome type, expected effect, " +
        "alpha, power, dropout), compute with sample_size, and " +
        "record the result.",
      fields: [
        {
          key: "outcome_type",
          label: t("Outcome type", "结局类型"),
          type: "enum",
          options: ["means", "proportions"],
        },
        { key: "assumptions", label: t("Assumptions", "假设"), type: "text" },
        { key: "n_per_group", label: t("Per group", "每组例数"), type: "number", min: 1 },
        { key: "n_total", label: t("Total", "总例数"), type: "number", min: 2 },
        { key: "n_enrol", label: t("To enrol (with dropout)", "需入组（含脱落）"), type: "number", min: 2 },
      ],
      required: ["n_per_group", "n_total"],
      next: "endpoints",
      transition: "auto",
      tools: ["sample_size"],
      actionCards: [
        {
          id: "calculator",
          type: "modal",
          title: t("Sample size calculator", "样本量计算器"),
          tool: "sample_size",
          form: [
            { key: "outcome", label: t("Outcome", "结局"), type: "enum", options: ["proportions", "means"] },
            { key: "p1", label: t("Proportion, control", "对照组比例"), type: "number", min: 0.001, max: 0.999 },
            {
              key: "p2",
              label: t("Proportion, intervention", "干预组比例"),
              type: "number",
              min: 0.001,
              max: 0.999,
            },
            {
              key: "effect_size",
              label: t("Effect size d (means)", "效应量 d（均数）"),
              type: "number",
              min: 0.01,
            },
            {
              key: "alpha",
              label: t("Alpha (two-sided)", "检验水准 α（双侧）"),
              type: "number",
              min: 0.001,
              max: 0.2,
            },
            { key: "power", label: t("Power", "检验效能"), type: "number", min: 0.5, max: 0.99 },
            { key: "dropout", label: t("Dropout", "脱落率"), type: "number", min: 0, max: 0.8 },
          ],
          resultMapping: { n_group1: "n_per_group", n_total: "n_total", n_total_with_dropout: "n_enrol" },
        },
      ],
    },
    {
      id: "endpoints",
      name: t("Endpoints", "终点指标"),
      order: 5,
      instruction: "Define one primary endpoint, any secondary endpoints, and when each is assessed.",
      fields: [
        { key: "primary_endpoint", label: t("Primary endpoint", "主要终点"), type: "text" },
        { key: "secondary_endpoints", label: t("Secondary endpoints", "次要终点"), type: "list" },
        { key: "assessment_times", label: t("Assessment times", "评估时间点"), type: "string" },
      ],
      required: ["primary_endpoint"],
      next: null,
      transition: "user_confirm",
      rules: [
        {
          id: "one-primary",
          kind: "pattern",
          field: "primary_endpoint",
          value: "^[^;]+$",
          severity: "warning",
          action: "warn",
          message: t("Several primary endpoints?", "主要终点不止一个？"),
          suggestion: t(
            "Keep one primary endpoint; move the others to secondary.",
            "只保留一个主要终点，其余列为次要终点。",
          ),
        },
      ],
    },
  ],
};
