import { z } from "zod/mini";
import { LIMITS } from "../wire/protocol.ts";
import type { ToolCallDelta } from "./tool-call-deltas.ts";

export const PURPOSES = ["chat", "classify", "quick"] as const;
export type Purpose = (typeof PURPOSES)[number];

export const ToolCall = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  type: z.literal("function"),
  function: z.object({ name: z.string().check(z.minLength(1), z.maxLength(200)), arguments: z.string() }),
});
export type ToolCall = z.infer<typeof ToolCall>;

const ContentPart = z.looseObject({ type: z.string(), text: z.optional(z.string()) });
const Content = z.union([z.string().check(z.maxLength(LIMITS.maxMessageChars)), z.array(ContentPart)]);

/** A client may give each message an id; the session log uses it to store each message once. */
const MessageId = z.optional(z.string().check(z.minLength(1), z.maxLength(100)));

export const ChatMessage = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: Content, id: MessageId }),
  z.object({ role: z.literal("user"), content: Content, id: MessageId, name: z.optional(z.string()) }),
  z.object({
    role: z.literal("assistant"),
    content: z.nullish(Content),
    tool_calls: z.optional(z.array(ToolCall)),
    /** The step's reasoning, for providers that want it back (see provider-config.ts); the worker decides. */
    reasoning_content: z.optional(z.string().check(z.maxLength(LIMITS.maxMessageChars * 4))),
    id: MessageId,
  }),
  z.object({ role: z.literal("tool"), content: Content, tool_call_id: z.string(), id: MessageId }),
]);
export type ChatMessage = z.infer<typeof ChatMessage>;

const Stop = z.string().check(z.maxLength(200));

/** OpenAI's output formats; a JSON schema is the client's to give, as any OpenAI client may. */
const ResponseFormat = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({
    type: z.literal("json_schema"),
    json_schema: z.object({
      name: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)),
      description: z.optional(z.string().check(z.maxLength(1_000))),
      schema: z.optional(z.record(z.string(), z.unknown())),
      strict: z.optional(z.nullable(z.boolean())),
    }),
  }),
]);

/**
 * The client's own fields that reach the provider as given: sampling and the output's format. With
 * `stream` and the token limits (capped by the agent and the site) they are all a client decides of
 * the provider's request; the worker sets the rest (model, system prompt, tools, usage in the stream)
 * and the provider profile its extra fields (reasoning switches). Listed once, here: the request
 * schema is built from it and the upstream body copies exactly these (worker/llm/upstream-body.ts).
 */
export const ClientSampling = {
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  top_p: z.optional(z.number().check(z.gte(0), z.lte(1))),
  stop: z.optional(z.union([Stop, z.array(Stop).check(z.maxLength(4))])),
  seed: z.optional(z.int()),
  response_format: z.optional(ResponseFormat),
};
export const CLIENT_SAMPLING_FIELDS = Object.keys(ClientSampling) as Array<keyof typeof ClientSampling>;

/**
 * The OpenAI-compatible chat request, as much of it as Parley reads; any OpenAI client can send it.
 * Top-level fields not named here (`n`, `store`, `service_tier`, `functions`, `logprobs`, a router's
 * `models` or `provider`, ...) are dropped as the body is parsed: they would multiply a turn's cost past
 * what the budget reserved, keep conversations at the provider, or route around the site's models and
 * tools. A client's `tools`/`tool_choice` are read and not forwarded; `parley` is Parley's own.
 */
export const ChatRequest = z.object({
  model: z.optional(z.string().check(z.maxLength(200))),
  messages: z.array(ChatMessage).check(z.minLength(1), z.maxLength(LIMITS.maxMessages)),
  stream: z.optional(z.boolean()),
  /** Accepted; a streamed turn always asks for usage in the stream (what the session's budget counts). */
  stream_options: z.optional(z.object({ include_usage: z.optional(z.boolean()) })),
  max_tokens: z.optional(z.int().check(z.positive())),
  max_completion_tokens: z.optional(z.int().check(z.positive())),
  ...ClientSampling,
  tools: z.optional(
    z.array(z.looseObject({ type: z.literal("function"), function: z.looseObject({ name: z.string() }) })),
  ),
  tool_choice: z.optional(z.unknown()),
  parley: z.optional(
    z.object({
      /** Id under which the assistant reply is stored; lets a retried request store it once. */
      replyId: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
      /**
       * `chat` (default): the agent's turn. `classify`: the router's intent decision (stored as a
       * trace step, not a message). `quick`: one answer from the `sources` given, no tools.
       */
      purpose: z.optional(z.enum(PURPOSES)),
      /** Quick path: retrieved passages and search results, put in the prompt as reference material. */
      sources: z.optional(z.string().check(z.maxLength(24_000))),
      /** The page that asks (shared/session/live.ts AttachFrame): its live socket is not sent this reply's text. */
      tab: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    }),
  ),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

/** One streamed chunk (`chat.completion.chunk`), the fields Parley reads. */
export interface ChatChunk {
  id?: string;
  object?: string;
  model?: string;
  choices: Array<{
    index: number;
    delta: {
      role?: string;
      content?: string | null;
      /** Reasoning in a field of its own: `reasoning_content` (DeepSeek, Qwen, vLLM), `reasoning` (OpenRouter). */
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: ToolCallDelta[];
    };
    finish_reason: string | null;
    /** Moonshot puts the usage in the last chunk's choice. */
    usage?: Usage | null;
  }>;
  usage?: Usage | null;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A non-streamed completion (`chat.completion`), the fields Parley reads. */
export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  model: string;
  choices: Array<{
    index: number;
    message: {
      role: "assistant";
      content: string | null;
      tool_calls?: ToolCall[];
      reasoning_content?: string | null;
      reasoning?: string | null;
    };
    finish_reason: string | null;
  }>;
  usage?: Usage;
}
