import type { ProviderStyle } from "./build.ts";
import { azure, gemini, openai, openrouter } from "./hosted.ts";
import { deepseekChat, deepseekReasoner, moonshot, qwen, zhipu } from "./china.ts";
import { llamacpp, ollama, vllm } from "./self-hosted.ts";

export {
  ANSWER,
  CALLS,
  CASES,
  THOUGHT,
  USAGE,
  buildCase,
  type CaseName,
  type FixtureReply,
  type ProviderStyle,
} from "./build.ts";

/** The conformance suite's providers, in the matrix's order. */
export const PROVIDERS: ProviderStyle[] = [
  openai,
  azure,
  deepseekChat,
  deepseekReasoner,
  qwen,
  moonshot,
  zhipu,
  gemini,
  openrouter,
  vllm,
  ollama,
  llamacpp,
];
