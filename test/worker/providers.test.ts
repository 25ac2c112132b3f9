import { describe, expect, it } from "vitest";
import { ANSWER, CALLS, CASES, PROVIDERS, THOUGHT, USAGE, type ProviderStyle } from "../helpers/providers/index.ts";
import {
  KEY,
  profileFor as profileWith,
  seenBy,
  siteFor,
  widgetTurn,
  type TurnResult,
} from "../helpers/worker/conformance.ts";

/**
 * The provider conformance matrix (`npm run test:providers` prints it): each provider's documented
 * stream and error shapes (test/helpers/providers/, each with its sources), replayed by the fake
 * upstream, through the proxy in workerd and the widget's stream handling. Test names are
 * `<provider> › <case>`: the matrix reporter reads them.
 */

const completion = (r: TurnResult) => r.state.trace.find((t) => t.kind === "completion");
const reply = (r: TurnResult) => r.state.messages.find((m) => m.role === "assistant");
const argsOf = (r: TurnResult) =>
  r.step!.toolCalls.map((c) => ({ name: c.function.name, args: JSON.parse(c.function.arguments) }));

/** A fallback answered: the provider's failure is traced with its reason, the visitor got the next model's reply. */
async function fellBack(style: ProviderStyle, which: number, reason: string, status: number) {
  const { siteKey, agentId } = await siteFor(style, which, {
    providers: [profileWith(style, which), profileWith(style, 0, "backup")],
    fallbacks: [{ provider: "backup", model: style.model }],
  });
  const r = await widgetTurn(siteKey, agentId);
  expect(r.error).toBeUndefined();
  expect(r.step!.text).toBe(ANSWER);
  const step = r.state.trace.find((t) => t.kind === "fallback");
  expect(step).toMatchObject({ ok: false, detail: { reason, status, from: style.model, to: style.model } });
  expect(completion(r)).toMatchObject({ ok: true, detail: { status: "complete", fallbacks: 1, attempts: 2 } });
  return step!;
}

const checks: Record<(typeof CASES)[number], (style: ProviderStyle, which: number) => Promise<void>> = {
  async text(style, which) {
    const { siteKey, agentId } = await siteFor(style, which);
    const r = await widgetTurn(siteKey, agentId);
    expect(r.step).toMatchObject({ text: ANSWER, reasoning: "", toolCalls: [], finishReason: "stop" });
    expect(reply(r)).toMatchObject({ content: ANSWER, status: "complete" });
    // Where the request went and how it was signed: the profile's auth style, the key from the secret.
    const [req] = await seenBy(style, which);
    expect(req.body.model).toBe(style.model);
    if (style.profile.auth === "azure") {
      expect(req.path).toBe(
        `/p/${style.id}/${which}/openai/deployments/chat-prod/chat/completions?api-version=2024-10-21`,
      );
      expect([req.apiKey, req.auth]).toEqual([KEY, null]);
    } else {
      expect(req.path).toBe(`/p/${style.id}/${which}/v1/chat/completions`);
      expect(req.auth).toBe(style.profile.auth === "none" ? null : `Bearer ${KEY}`);
    }
    // A model's extra body fields (Qwen's enable_thinking, Gemini's thinking config) go along.
    for (const [k, v] of Object.entries(style.profile.models?.[style.model]?.extraBody ?? {}))
      expect(req.body[k]).toEqual(v);
  },

  async "tool call"(style, which) {
    const { siteKey, agentId } = await siteFor(style, which);
    const r = await widgetTurn(siteKey, agentId);
    expect(r.step!.finishReason).toBe("tool_calls");
    expect(argsOf(r)).toEqual(CALLS.slice(0, 1));
    expect(r.step!.toolCalls[0].id).toBeTruthy();
    // The session stored the same calls, ids included: a tool result the widget sends back names them.
    expect(reply(r)!.toolCalls).toEqual(r.step!.toolCalls);
  },

  async "parallel tools"(style, which) {
    const { siteKey, agentId } = await siteFor(style, which);
    const r = await widgetTurn(siteKey, agentId);
    expect(argsOf(r)).toEqual(CALLS);
    expect(new Set(r.step!.toolCalls.map((c) => c.id)).size).toBe(2);
    expect(reply(r)!.toolCalls).toEqual(r.step!.toolCalls);
  },

  async reasoning(style, which) {
    const { siteKey, agentId } = await siteFor(style, which);
    const r = await widgetTurn(siteKey, agentId);
    expect(r.step!.text).toBe(ANSWER);
    expect(reply(r)!.content).toBe(ANSWER);
    if (style.reasoning === "hidden") {
      // The provider keeps its thinking to itself: nothing shown, nothing stored.
      expect(r.step!.reasoning).toBe("");
      expect(reply(r)!.reasoning).toBeUndefined();
    } else {
      expect(r.step!.reasoning!.trim()).toBe(THOUGHT);
      expect(reply(r)!.reasoning!.trim()).toBe(THOUGHT);
    }
  },

  async usage(style, which) {
    const { siteKey, agentId } = await siteFor(style, which);
    const r = await widgetTurn(siteKey, agentId);
    const [req] = await seenBy(style, which);
    expect(req.body.stream_options).toEqual({ include_usage: true });
    const detail = completion(r)!.detail!;
    if (style.usage === "none") {
      // No usage in the stream: estimated from the text, and marked so.
      expect(detail).toMatchObject({ estimated: true });
      expect(detail.completionTokens).toBeGreaterThan(0);
    } else {
      expect(detail).toMatchObject({ promptTokens: USAGE.prompt_tokens, completionTokens: USAGE.completion_tokens });
      expect(detail.estimated).toBeUndefined();
      expect(r.state.usage.totalTokens).toBe(USAGE.total_tokens);
    }
  },

  async "429 + Retry-After"(style, which) {
    const step = await fellBack(style, which, "upstream_busy", 429);
    const header = style.rateLimit.headers["retry-after"];
    expect(step.detail!.retryAfterMs).toBe(header === undefined ? null : Number(header) * 1000);
  },

  async "5xx"(style, which) {
    await fellBack(style, which, "upstream_error", style.serverError.status);
  },

  async "cut stream"(style, which) {
    const { siteKey, agentId } = await siteFor(style, which);
    const r = await widgetTurn(siteKey, agentId);
    // The widget's completion fails (the response breaks, or ends with neither [DONE] nor a finish
    // reason) after showing part of the answer, which its chat store keeps marked interrupted; the
    // session stores what came, marked so too.
    expect(r.step).toBeUndefined();
    expect(r.error?.name).toMatch(/^(ProtocolError|TypeError|Error)$/);
    expect(r.shown.length).toBeGreaterThan(0);
    expect(ANSWER.startsWith(r.shown)).toBe(true);
    expect(reply(r)).toMatchObject({ status: "interrupted" });
    expect(ANSWER.startsWith(reply(r)!.content)).toBe(true);
    expect(completion(r)).toMatchObject({ ok: false, detail: { status: "interrupted", estimated: true } });
  },
};

// Each case has a site and an upstream path of its own (siteFor, seenBy): the cases run at once, so one
// waiting on its stream (a cut one ends a second after its last chunk) does not hold the others up.
describe.concurrent("provider conformance", () => {
  for (const style of PROVIDERS) {
    CASES.forEach((c, which) => {
      it(`${style.name} › ${c}`, () => checks[c](style, which));
    });
  }
});
