import type { ProviderStyle } from "./build.ts";

/**
 * Hosted providers outside China. Where a page does not show a detail (a Retry-After on every 429),
 * the fixture says so; Parley reads it when present and does not depend on it.
 */
const RETRY = { "retry-after": "2" };

export const openai: ProviderStyle = {
  id: "openai",
  name: "OpenAI",
  sources: [
    "https://platform.openai.com/docs/api-reference/chat-streaming (chunk object; usage: null on each chunk, then " +
      "a chunk with choices [] when stream_options.include_usage)",
    "https://platform.openai.com/docs/guides/reasoning (reasoning is not streamed; " +
      "completion_tokens_details.reasoning_tokens)",
    "https://platform.openai.com/docs/guides/error-codes and /docs/guides/rate-limits (429 body, x-ratelimit-* " +
      "headers)",
  ],
  profile: {
    auth: "bearer",
    keyEnv: "LLM_TEST_KEY",
    models: { "gpt-4.1-mini": { tools: true, parallelTools: true, vision: true, jsonMode: true } },
  },
  model: "gpt-4.1-mini",
  envelope: { system_fingerprint: "fp_6f2eabb9a5", service_tier: "default", usage: null },
  choiceExtra: { logprobs: null },
  roleDelta: { role: "assistant", content: "", refusal: null },
  usage: "own-chunk",
  usageExtra: { prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } },
  tools: "openai",
  reasoning: "hidden",
  rateLimit: {
    headers: {
      ...RETRY,
      "x-ratelimit-limit-requests": "500",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "2s",
    },
    body: {
      error: {
        message:
          "Rate limit reached for gpt-4.1-mini in organization org-x on requests per min (RPM): Limit 500, Used " +
          "500, Requested 1.",
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      },
    },
  },
  serverError: {
    status: 500,
    body: {
      error: {
        message: "The server had an error while processing your request. Sorry about that!",
        type: "server_error",
        param: null,
        code: null,
      },
    },
  },
};

export const azure: ProviderStyle = {
  id: "azure",
  name: "Azure OpenAI",
  sources: [
    "https://learn.microsoft.com/azure/ai-services/openai/reference (api-key header, " +
      "/openai/deployments/{deployment}/chat/completions?api-version=)",
    "https://learn.microsoft.com/azure/ai-services/openai/concepts/content-filter (a first chunk with " +
      "prompt_filter_results and no choices; content_filter_results per choice)",
    "https://learn.microsoft.com/azure/ai-services/openai/quotas-limits (429 with retry-after)",
  ],
  profile: {
    auth: "azure",
    keyEnv: "LLM_TEST_KEY",
    apiVersion: "2024-10-21",
    models: { "gpt-4o-mini": { deployment: "chat-prod" } },
  },
  model: "gpt-4o-mini",
  preamble: [
    {
      choices: [],
      created: 0,
      id: "",
      model: "",
      object: "",
      prompt_filter_results: [
        {
          prompt_index: 0,
          content_filter_results: {
            hate: { filtered: false, severity: "safe" },
            self_harm: { filtered: false, severity: "safe" },
          },
        },
      ],
    },
  ],
  envelope: { system_fingerprint: "fp_efad92c60b" },
  choiceExtra: {
    content_filter_results: {
      hate: { filtered: false, severity: "safe" },
      violence: { filtered: false, severity: "safe" },
    },
  },
  roleDelta: { role: "assistant", content: "" },
  usage: "own-chunk",
  tools: "openai",
  reasoning: "hidden",
  rateLimit: {
    headers: { "retry-after": "6", "retry-after-ms": "6000" },
    body: {
      error: {
        code: "429",
        message:
          "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have " +
          "exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds.",
      },
    },
  },
  serverError: {
    status: 503,
    body: {
      error: {
        code: "ServiceUnavailable",
        message: "The service is temporarily unable to process your request. Please try again later.",
      },
    },
  },
};

export const gemini: ProviderStyle = {
  id: "gemini",
  name: "Gemini (OpenAI compatibility)",
  sources: [
    "https://ai.google.dev/gemini-api/docs/openai (base URL /v1beta/openai/, " +
      "extra_body.google.thinking_config.include_thoughts: thoughts in the content in <thought> tags)",
    "THU-MAIC/OpenMAIC#1556, open-webui/computer#224 (tool-call deltas without index), " +
      "googleapis/python-genai#2868 (finish_reason stop with tool calls)",
    "https://ai.google.dev/gemini-api/docs/troubleshooting (429 RESOURCE_EXHAUSTED; errors as a list; no " +
      "Retry-After header documented)",
  ],
  profile: {
    auth: "bearer",
    keyEnv: "LLM_TEST_KEY",
    models: {
      "gemini-2.5-flash": {
        reasoning: true,
        extraBody: { extra_body: { google: { thinking_config: { include_thoughts: true } } } },
      },
    },
  },
  model: "gemini-2.5-flash",
  roleDelta: { role: "assistant" },
  usage: "last-chunk",
  tools: "no-index",
  toolFinish: "stop",
  reasoning: "thought-tags",
  rateLimit: {
    headers: {},
    body: [
      {
        error: { code: 429, message: "Resource has been exhausted (e.g. check quota).", status: "RESOURCE_EXHAUSTED" },
      },
    ],
  },
  serverError: {
    status: 503,
    body: [
      { error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" } },
    ],
  },
};

export const openrouter: ProviderStyle = {
  id: "openrouter",
  name: "OpenRouter",
  sources: [
    "https://openrouter.ai/docs/api-reference/streaming (`: OPENROUTER PROCESSING` comments; usage in a last " +
      "chunk with choices [])",
    "https://openrouter.ai/docs/use-cases/reasoning-tokens (delta.reasoning)",
    "https://openrouter.ai/docs/api-reference/errors (error.code, error.metadata; 429, 502 provider errors)",
  ],
  profile: { auth: "bearer", keyEnv: "LLM_TEST_KEY", models: { "deepseek/deepseek-r1": { reasoning: true } } },
  model: "deepseek/deepseek-r1",
  envelope: { provider: "DeepInfra" },
  roleDelta: { role: "assistant" },
  comment: ": OPENROUTER PROCESSING\n\n",
  usage: "own-chunk",
  tools: "openai",
  reasoning: "reasoning",
  rateLimit: {
    headers: RETRY,
    body: {
      error: {
        code: 429,
        message: "Rate limit exceeded: free-models-per-min.",
        metadata: { headers: { "X-RateLimit-Remaining": "0" } },
      },
    },
  },
  serverError: {
    status: 502,
    body: { error: { code: 502, message: "Provider returned error", metadata: { provider_name: "DeepInfra" } } },
  },
};
