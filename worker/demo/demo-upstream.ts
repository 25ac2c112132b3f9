import type { UpstreamBody } from "../llm/upstream-body.ts";
import type { ModelReply } from "../llm/model-reply.ts";
import { DEMO_SCRIPTS } from "./presets/index.ts";
import { SSE_DONE, demoChunks, demoCompletion, pickDemoStep, sseData, type DemoRequest } from "./demo-model.ts";

const enc = new TextEncoder();
export const DEMO_MODEL = "parley-demo";

/**
 * The offline stand-in for a provider: answers like an OpenAI-compatible endpoint from the
 * agent's scripted conversation, streaming chunk by chunk with a small pause between them.
 */
export function demoReply(agentId: string, body: UpstreamBody, chunkMs: number): ModelReply {
  const script = DEMO_SCRIPTS[agentId];
  const step = script ? pickDemoStep(script, demoRequest(body)) : { content: "This agent has no demo script yet." };
  const opts = { id: `demo-${crypto.randomUUID()}`, model: DEMO_MODEL, messages: body.messages };
  if (!body.stream) return { kind: "json", completion: demoCompletion(step, opts) };
  const chunks = demoChunks(step, opts);
  let i = 0;
  let stopped = false;
  let stop = () => {};
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      // Ended without [DONE], not errored: an error would drop what a lagging reader of a tee's
      // branch holds (the session's copy of the reply), a close keeps it.
      stop = () => {
        if (stopped) return;
        stopped = true;
        if (i <= chunks.length) controller.close();
      };
    },
    async pull(controller) {
      if (i > 0 && chunkMs > 0) await new Promise((r) => setTimeout(r, chunkMs));
      if (stopped) return;
      if (i < chunks.length) controller.enqueue(enc.encode(sseData(chunks[i++])));
      else {
        controller.enqueue(enc.encode(SSE_DONE));
        controller.close();
        i++;
      }
    },
  });
  // Stop ends it as it ends a provider's request.
  return { kind: "stream", stream: { first: null, rest, abort: () => stop() } };
}

/** What the demo model reads of an OpenAI request: messages, offered tools, a forced tool. */
export function demoRequest(body: {
  messages: DemoRequest["messages"];
  tools?: unknown;
  tool_choice?: unknown;
}): DemoRequest {
  const tools = Array.isArray(body.tools)
    ? body.tools.map((t: { function?: { name?: string } }) => t.function?.name ?? "")
    : [];
  const choice = body.tool_choice as { function?: { name?: string } } | undefined;
  return { messages: body.messages, tools, forcedTool: choice?.function?.name };
}
