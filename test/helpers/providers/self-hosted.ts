import type { ProviderStyle } from "./build.ts";

/**
 * Servers a team runs itself. None rate-limits on its own: a 429 comes from the gateway in front
 * (here as plain text, which a gateway often sends), a 5xx from the server.
 */
const gateway429 = { headers: { "retry-after": "1" }, body: "429 Too Many Requests" };

export const vllm: ProviderStyle = {
  id: "vllm",
  name: "vLLM",
  sources: [
    "https://docs.vllm.ai/en/latest/features/reasoning_outputs.html (--reasoning-parser: reasoning_content deltas)",
    "https://docs.vllm.ai/en/latest/features/tool_calling.html (OpenAI-style tool-call deltas with " +
      "--enable-auto-tool-choice)",
    "https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html (stream_options.include_usage; error " +
      "responses)",
  ],
  profile: { auth: "none", models: { "Qwen/Qwen3-8B": { reasoning: true } } },
  model: "Qwen/Qwen3-8B",
  choiceExtra: { logprobs: null },
  roleDelta: { role: "assistant", content: "" },
  usage: "own-chunk",
  tools: "openai",
  reasoning: "reasoning_content",
  rateLimit: gateway429,
  serverError: {
    status: 500,
    body: {
      error: { message: "EngineCore encountered an issue.", type: "InternalServerError", param: null, code: 500 },
    },
  },
};

export const ollama: ProviderStyle = {
  id: "ollama",
  name: "Ollama",
  sources: [
    "https://github.com/ollama/ollama/blob/main/docs/openai.md (/v1/chat/completions; a tool call sent whole)",
    "open-webui/open-webui#8706, ChatGPTNextWeb/NextChat#6200 (R1-style models: <think> inside content)",
    "https://github.com/ollama/ollama/blob/main/docs/faq.md (503 when the request queue is full, OLLAMA_MAX_QUEUE)",
    "older releases: finish_reason stop with tool calls, and no usage in the stream (Parley estimates it, marked)",
  ],
  profile: { auth: "none", models: { "deepseek-r1:8b": { reasoning: true } } },
  model: "deepseek-r1:8b",
  envelope: { system_fingerprint: "fp_ollama" },
  roleDelta: { role: "assistant" },
  usage: "none",
  tools: "whole",
  toolFinish: "stop",
  reasoning: "think-tags",
  rateLimit: gateway429,
  serverError: {
    status: 503,
    body: {
      error: {
        message: "server busy, please try again.  maximum pending requests exceeded",
        type: "api_error",
        param: null,
        code: null,
      },
    },
  },
};

export const llamacpp: ProviderStyle = {
  id: "llamacpp",
  name: "llama.cpp server",
  sources: [
    "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md (--reasoning-format none keeps " +
      "<think> in content; usage and timings in the last chunk; 503 while loading)",
    "ggml-org/llama.cpp#13867 (streamed <think> in content), ggml-org/llama.cpp#20198 (tool-call arguments as a " +
      "JSON object)",
  ],
  profile: { auth: "none", models: { "DeepSeek-R1-Distill-Qwen-7B": { reasoning: true } } },
  model: "DeepSeek-R1-Distill-Qwen-7B",
  envelope: { system_fingerprint: "b5523-aa6dff0" },
  roleDelta: { role: "assistant" },
  usage: "last-chunk",
  usageExtra: {},
  tools: "object-args",
  reasoning: "think-tags",
  rateLimit: gateway429,
  serverError: { status: 503, body: { error: { code: 503, message: "Loading model", type: "unavailable_error" } } },
};
