import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { ChatMessage, ToolCall, Usage } from "../../shared/chat/chat.ts";
import { mergeToolCallDeltas, slotOf, type ToolCallDelta } from "../../shared/chat/tool-call-deltas.ts";
import { ESCALATE_EMERGENCY } from "../../shared/tools/escalate-emergency.ts";
import type { ProviderStream } from "../llm/model-reply.ts";
import { MAX_ESCALATION_ROUNDS } from "./model-escalation.ts";

/** A message the worker adds to the turn's request (the model's call, its result), in the wire's shape. */
export type FollowUpMessage = ChatMessage extends infer M ? (M extends ChatMessage ? Omit<M, "id"> : never) : never;

export interface EscalationCallHooks {
  /**
   * Runs one escalate_emergency call (its JSON arguments): the SSE text sent to the client at once
   * (the card, when this call raised it), and the result the model reads next.
   */
  run(args: string): { chunk: string | null; result: string };
  /** The model's next step: the turn's request with these messages after its own (the calls and their results). */
  next(messages: FollowUpMessage[]): Promise<ProviderStream>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** One provider request's worth of the reply: its calls so far, which are escalate_emergency, its text. */
interface Step {
  calls: ToolCall[];
  escalate: Set<number>;
  others: Set<number>;
  content: string;
  reasoning: string;
  /** The finish chunk, held back while its calls decide whether the reply goes on (a follow-up request). */
  finish: Json | null;
  ran: boolean;
  done: boolean;
  results: Array<{ call: ToolCall; result: string }>;
}

const newStep = (): Step => ({
  calls: [],
  escalate: new Set(),
  others: new Set(),
  content: "",
  reasoning: "",
  finish: null,
  ran: false,
  done: false,
  results: [],
});

const sse = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;
const raw = (e: EventSourceMessage) =>
  `${e.event ? `event: ${e.event}\n` : ""}${e.data
    .split("\n")
    .map((l) => `data: ${l}`)
    .join("\n")}\n\n`;

const addUsage = (a: Usage | null, b: Usage): Usage =>
  a
    ? {
        prompt_tokens: a.prompt_tokens + b.prompt_tokens,
        completion_tokens: a.completion_tokens + b.completion_tokens,
        total_tokens: a.total_tokens + b.total_tokens,
      }
    : b;

/**
 * The provider's stream with the model's escalate_emergency calls run on the worker: the calls never
 * reach the client (the widget would try to run them), each raises the escalation as it completes
 * (its card goes out then, ahead of any text that follows), and a step that called nothing else is
 * followed by the model's next one, asked with the calls' results, in the same reply. The usage of
 * every request is summed into one usage chunk at the end, so the reply's cost counts them all.
 *
 * This reads the stream in JavaScript, chunk by chunk, which costs the worker about 60 % more CPU
 * than the runtime's pipe (live-reply.ts): it is used for a reply that starts with a tool call or
 * reasoning (step-start.ts), not for one that starts with text.
 */
export function relayEscalationCalls(start: ProviderStream, hooks: EscalationCallHooks): ProviderStream {
  const enc = new TextEncoder();
  let source = start;
  let reader = start.rest.getReader();
  let pending: Uint8Array | null = start.first;
  let decoder = new TextDecoder();
  let step = newStep();
  let rounds = 0;
  let usage: Usage | null = null;
  let usageChunk: Json | null = null;
  const followUp: FollowUpMessage[] = [];
  let out = "";
  let ended = false;

  const run = () => {
    step.ran = true;
    for (const slot of step.escalate) {
      const call = step.calls[slot];
      const { chunk, result } = hooks.run(call.function.arguments);
      if (chunk) out += chunk;
      step.results.push({ call, result });
    }
  };

  const onEvent = (e: EventSourceMessage) => {
    if (e.data === "[DONE]") {
      step.done = true;
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(e.data);
    } catch {
      out += raw(e);
      return;
    }
    if (!isObject(chunk)) {
      out += raw(e);
      return;
    }
    let changed = false;
    // Held to the end: the reply's usage is every request's.
    if (isObject(chunk.usage)) {
      usage = addUsage(usage, chunk.usage as unknown as Usage);
      const { usage: _u, ...rest } = chunk;
      if (Array.isArray(chunk.choices) && chunk.choices.length === 0) {
        usageChunk = rest;
        return;
      }
      chunk = rest;
      changed = true;
    }
    const c = chunk as Json;
    const choice = Array.isArray(c.choices) && isObject(c.choices[0]) ? c.choices[0] : null;
    if (!choice) {
      out += changed ? sse(c) : raw(e);
      return;
    }
    const delta = isObject(choice.delta) ? choice.delta : null;
    if (delta) {
      if (typeof delta.content === "string") step.content += delta.content;
      if (typeof delta.reasoning_content === "string") step.reasoning += delta.reasoning_content;
      if (Array.isArray(delta.tool_calls)) {
        const kept: ToolCallDelta[] = [];
        for (const d of delta.tool_calls as ToolCallDelta[]) {
          if (!isObject(d)) continue;
          const slot = slotOf(step.calls, d);
          mergeToolCallDeltas(step.calls, [d]);
          if (step.calls[slot]?.function.name === ESCALATE_EMERGENCY) step.escalate.add(slot);
          else {
            step.others.add(slot);
            kept.push(d);
          }
        }
        if (kept.length !== delta.tool_calls.length) {
          changed = true;
          if (kept.length) delta.tool_calls = kept;
          else delete delta.tool_calls;
        }
      }
    }
    if (choice.finish_reason && step.escalate.size) {
      run();
      if (!step.others.size) {
        // Whether the reply ends here or goes on with the model's next step is known at the step's end.
        step.finish = { ...c, choices: [{ ...choice, delta: {}, finish_reason: "stop" }] };
        choice.finish_reason = null;
        changed = true;
      }
    }
    if (!changed) {
      out += raw(e);
      return;
    }
    const empty =
      choice.finish_reason == null &&
      (!delta || Object.values(delta).every((v) => v == null || v === "" || (Array.isArray(v) && !v.length)));
    if (!empty) out += sse(c);
  };
  let parser = createParser({ onEvent });

  /** The step's stream ended: the reply ends too, or the model is asked for its next step. */
  const endStep = async (): Promise<void> => {
    parser.feed(decoder.decode());
    if (step.escalate.size && !step.ran) run();
    if (step.escalate.size && !step.others.size && rounds < MAX_ESCALATION_ROUNDS) {
      rounds++;
      const calls = [...step.escalate].map((slot, i) => {
        const call = step.calls[slot];
        return call.id ? call : { ...call, id: `call_escalate_${rounds}_${i}` };
      });
      followUp.push(
        {
          role: "assistant",
          content: step.content || null,
          tool_calls: calls,
          ...(step.reasoning ? { reasoning_content: step.reasoning } : {}),
        },
        ...step.results.map(({ result }, i) => ({ role: "tool" as const, tool_call_id: calls[i].id, content: result })),
      );
      try {
        source = await hooks.next(followUp);
      } catch (err) {
        const error = { code: "upstream_error", message: `The reply's next step failed: ${(err as Error)?.message}` };
        out += sse({ error });
        ended = true;
        return;
      }
      reader = source.rest.getReader();
      pending = source.first;
      decoder = new TextDecoder();
      step = newStep();
      parser = createParser({ onEvent });
      return;
    }
    if (step.finish) out += sse(step.finish);
    if (usage) out += sse({ ...(usageChunk ?? { object: "chat.completion.chunk", choices: [] }), usage });
    if (step.done) out += "data: [DONE]\n\n";
    ended = true;
  };

  const rest = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (out) {
          controller.enqueue(enc.encode(out));
          out = "";
          return;
        }
        if (ended) {
          controller.close();
          return;
        }
        let bytes: Uint8Array | null = pending;
        pending = null;
        if (!bytes) {
          let next: ReadableStreamReadResult<Uint8Array>;
          try {
            next = await reader.read();
          } catch {
            // The provider broke off: a call that came whole still raises the card. The stream ends
            // rather than errors: an error would drop what the object's copy (a tee branch) had not
            // read yet; the reply, without its end, is stored as cut and the route breaks the response.
            if (step.escalate.size && !step.ran) run();
            if (out) controller.enqueue(enc.encode(out));
            controller.close();
            return;
          }
          if (next.done) {
            await endStep();
            continue;
          }
          bytes = next.value;
        }
        parser.feed(decoder.decode(bytes, { stream: true }));
      }
    },
    cancel(reason) {
      source.abort?.();
      return reader.cancel(reason);
    },
  });
  return { first: null, rest, abort: () => source.abort?.() };
}
