import type { ProviderStyle } from "./build.ts";

/** The providers a site owner in China most likely picks. */
const RETRY = { "retry-after": "1" };
const DEEPSEEK_SOURCES = [
  "https://api-docs.deepseek.com/api/create-chat-completion (chunks; usage in a last chunk with choices [] when " +
    "include_usage)",
  "https://api-docs.deepseek.com/quick_start/rate_limit (`: keep-alive` comments while a request waits)",
  "https://api-docs.deepseek.com/quick_start/error_codes (429 Rate Limit Reached, 503 Server Overloaded)",
];

const deepseekBase = {
  envelope: { system_fingerprint: "fp_3a5770e1b4_prod0820_fp8_kvcache" },
  choiceExtra: { logprobs: null },
  roleDelta: { role: "assistant", content: "" },
  comment: ": keep-alive\n\n",
  usage: "own-chunk",
  usageExtra: { prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 57 },
  tools: "openai",
  rateLimit: {
    headers: RETRY,
    body: { error: { message: "Rate Limit Reached", type: "rate_limit_error", param: null, code: "rate_limit" } },
  },
  serverError: {
    status: 503,
    body: { error: { message: "Server overloaded, please try again later.", type: "service_unavailable_error" } },
  },
} as const;

export const deepseekChat: ProviderStyle = {
  ...deepseekBase,
  id: "deepseek-chat",
  name: "DeepSeek chat",
  sources: DEEPSEEK_SOURCES,
  profile: { auth: "bearer", keyEnv: "LLM_TEST_KEY", models: { "deepseek-chat": { jsonMode: true } } },
  model: "deepseek-chat",
  reasoning: "hidden",
};

export const deepseekReasoner: ProviderStyle = {
  ...deepseekBase,
  id: "deepseek-reasoner",
  name: "DeepSeek reasoner",
  sources: [
    ...DEEPSEEK_SOURCES,
    "https://api-docs.deepseek.com/guides/thinking_mode (reasoning_content beside content; in a tool-call loop it " +
      "must be sent back)",
    "SaladDay/cc-switch-cli#170, abhigyanpatwari/GitNexus#43 (400 Missing reasoning_content field in the " +
      "assistant message)",
  ],
  profile: {
    auth: "bearer",
    keyEnv: "LLM_TEST_KEY",
    reasoningReplay: "tool-turns",
    models: { "deepseek-reasoner": { reasoning: true } },
  },
  model: "deepseek-reasoner",
  reasoning: "reasoning_content",
};

export const qwen: ProviderStyle = {
  id: "qwen",
  name: "Qwen (DashScope compatible mode)",
  sources: [
    "https://help.aliyun.com/en/model-studio/compatibility-of-openai-with-dashscope (base /compatible-mode/v1; " +
      "usage in a last chunk with choices [])",
    "https://help.aliyun.com/en/model-studio/deep-thinking (enable_thinking in the body; reasoning_content deltas)",
    "https://help.aliyun.com/en/model-studio/error-code (429 limit_requests, 500 internal_error)",
  ],
  profile: {
    auth: "bearer",
    keyEnv: "LLM_TEST_KEY",
    models: { "qwen-plus": { reasoning: true, extraBody: { enable_thinking: true } } },
  },
  model: "qwen-plus",
  envelope: { system_fingerprint: null },
  choiceExtra: { logprobs: null },
  roleDelta: { role: "assistant" },
  usage: "own-chunk",
  tools: "openai",
  reasoning: "reasoning_content",
  rateLimit: {
    headers: RETRY,
    body: {
      error: {
        message: "Requests rate limit exceeded, please try again later.",
        type: "limit_requests",
        param: null,
        code: "limit_requests",
      },
    },
  },
  serverError: {
    status: 500,
    body: {
      error: {
        message: "An internal error has occured, please try again later.",
        type: "internal_error",
        param: null,
        code: "internal_error",
      },
    },
  },
};

export const moonshot: ProviderStyle = {
  id: "moonshot",
  name: "Moonshot (Kimi)",
  sources: [
    "https://platform.moonshot.ai/docs/api/chat (streamed chunks; usage inside the last chunk's choices[0])",
    "caudena/beam_weaver v0.1.12 release notes (Kimi's documented final choices[0].usage shape)",
    "https://platform.moonshot.ai/docs/api/chat#error-explanation (429 rate_limit_reached_error, 500 server_error)",
  ],
  profile: { auth: "bearer", keyEnv: "LLM_TEST_KEY", models: { "kimi-k2.6": { reasoning: true } } },
  model: "kimi-k2.6",
  roleDelta: { role: "assistant", content: "" },
  usage: "in-choice",
  tools: "openai",
  reasoning: "reasoning_content",
  rateLimit: {
    headers: RETRY,
    body: {
      error: {
        message: "Your account request reached organization max RPM: 3, please try again after 1 seconds",
        type: "rate_limit_reached_error",
      },
    },
  },
  serverError: { status: 500, body: { error: { message: "Server error, please retry", type: "server_error" } } },
};

export const zhipu: ProviderStyle = {
  id: "zhipu",
  name: "Zhipu GLM",
  sources: [
    "https://docs.bigmodel.cn/api-reference (base /api/paas/v4; a tool call sent whole in one delta; usage with " +
      "the last chunk; reasoning_content)",
    "https://docs.bigmodel.cn/cn/api/api-code (429 with code 1302/1303; finish_reason sensitive and network_error)",
  ],
  profile: { auth: "bearer", keyEnv: "LLM_TEST_KEY", models: { "glm-4.6": { reasoning: true } } },
  model: "glm-4.6",
  roleDelta: { role: "assistant" },
  usage: "last-chunk",
  tools: "whole",
  reasoning: "reasoning_content",
  rateLimit: {
    headers: RETRY,
    body: {
      error: {
        code: "1302",
        message: "您当前使用该API的并发数过高，请降低并发，或联系客服增加限额。",
      },
    },
  },
  serverError: { status: 500, body: { error: { code: "500", message: "Internal Error" } } },
};
