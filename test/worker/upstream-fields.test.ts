import { describe, expect, inject, it } from "vitest";
import { auth, call, openSession, readSse } from "../helpers/worker/client.ts";
import { providerSite, putSite } from "../helpers/worker/sites.ts";

/**
 * What of a visitor's chat body reaches the provider: a recording provider on a real socket (the
 * provider fake of upstream-setup.ts logs every body it gets) behind the real app in workerd, for
 * a streamed turn (run by the session's object) and an unstreamed one (run by the route).
 */
const BASE = inject("providerUpstreamUrl");

/** The client fields the provider may get, as sent, (derm-consult caps max_tokens at 800). */
const ALLOWED = {
  temperature: 0.3,
  top_p: 0.9,
  stop: ["\n\nUser:"],
  seed: 42,
  response_format: { type: "json_object" },
};
/** Everything else a client can put at the top level: none of it may arrive. */
const REFUSED = {
  n: 64,
  store: true,
  service_tier: "priority",
  functions: [{ name: "rm_rf", parameters: { type: "object" } }],
  function_call: { name: "rm_rf" },
  models: ["openai/o1-pro"],
  provider: { order: ["OpenAI"], allow_fallbacks: true },
  route: "fallback",
  logprobs: true,
  top_logprobs: 20,
  logit_bias: { "50256": 100 },
  metadata: { visitor: "probe" },
  user: "probe-user",
  prediction: { type: "content", content: "x" },
  modalities: ["text", "audio"],
  audio: { voice: "alloy", format: "mp3" },
  web_search_options: {},
  reasoning_effort: "high",
  reasoning: { effort: "high" },
  enable_thinking: false,
  thinking: { type: "disabled" },
  parallel_tool_calls: true,
  frequency_penalty: 2,
  presence_penalty: 2,
  extra_body: { n: 8 },
};

/** The fields the worker itself puts in every request. */
const WORKER_OWN = ["model", "messages", "max_tokens", "tools", "stream"];

type Seen = { path: string; body: Record<string, unknown> };
async function seenAt(prefix: string): Promise<Seen[]> {
  const all = (await (await fetch(inject("providerLogUrl"))).json()) as Seen[];
  return all.filter((r) => r.path.startsWith(prefix));
}

/** A turn of a session of `siteKey`, whose provider profile is the recording fake. */
async function turn(stream: boolean, siteKey: string, extra: Record<string, unknown> = {}) {
  const s = await openSession("derm-consult", {}, { siteKey });
  const json = {
    ...REFUSED,
    ...ALLOWED,
    stream,
    stream_options: { include_usage: false },
    max_tokens: 50_000,
    tools: [{ type: "function", function: { name: "rm_rf" } }],
    tool_choice: "required",
    messages: [{ id: "u1", role: "user", content: "Which sunscreen for a toddler?" }],
    parley: { replyId: "r1" },
    ...extra,
  };
  const { res, done } = await call("/v1/chat/completions", { method: "POST", json, headers: auth(s.token) });
  expect(res.status).toBe(200);
  if (stream) expect((await readSse(res)).at(-1)).toBe("[DONE]");
  else expect(((await res.json()) as { object: string }).object).toBe("chat.completion");
  await done();
}

describe("the provider gets only the client fields the chat schema lists", () => {
  for (const stream of [true, false]) {
    it(`${stream ? "streamed" : "unstreamed"}: sampling fields as sent, the rest dropped`, async () => {
      const prefix = `/fields/${crypto.randomUUID()}`;
      await turn(stream, await providerSite(`${BASE}${prefix}/v1`));
      const [seen] = await seenAt(prefix);
      const body = seen.body;
      const expected = [...WORKER_OWN, ...Object.keys(ALLOWED), ...(stream ? ["stream_options"] : [])];
      expect(Object.keys(body).sort()).toEqual(expected.sort());
      expect(body).toMatchObject(ALLOWED);
      expect(body.stream).toBe(stream);
      // The agent's cap, whatever was asked; usage in the stream always (the budget counts it).
      expect(body.max_tokens).toBe(800);
      if (stream) expect(body.stream_options).toEqual({ include_usage: true });
      // The agent's tools, never the client's.
      const tools = (body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
      expect(tools).not.toContain("rm_rf");
      expect(tools).toContain("record_advice");
    });
  }

  it("max_completion_tokens is capped like max_tokens", async () => {
    const prefix = `/fields/${crypto.randomUUID()}`;
    const siteKey = await providerSite(`${BASE}${prefix}/v1`);
    await turn(false, siteKey, { max_tokens: undefined, max_completion_tokens: 99_999 });
    const [seen] = await seenAt(prefix);
    expect(seen.body.max_completion_tokens).toBe(800);
    expect(seen.body.max_tokens).toBeUndefined();
  });

  it("reasoning switches come from the provider profile only; n and store never go, even from it", async () => {
    const prefix = `/fields/${crypto.randomUUID()}`;
    const siteKey = await putSite({
      providers: [
        {
          id: "qwen",
          baseUrl: `${BASE}${prefix}/v1`,
          keyEnv: "LLM_TEST_KEY",
          // The owner's own switches go along; fields that multiply or keep a turn do not, even from here.
          extraBody: { enable_thinking: true, thinking_budget: 512, n: 3, store: true },
          models: { "gpt-4o-mini": { reasoning: true, extraBody: { reasoning_effort: "low" } } },
        },
      ],
    });
    for (const stream of [true, false]) await turn(stream, siteKey);
    const seen = await seenAt(prefix);
    expect(seen).toHaveLength(2);
    for (const { body } of seen) {
      expect(body).toMatchObject({ enable_thinking: true, thinking_budget: 512, reasoning_effort: "low" });
      for (const field of ["n", "store", "thinking", "reasoning", "functions", "service_tier", "user"])
        expect(body, field).not.toHaveProperty(field);
    }
  });
});
