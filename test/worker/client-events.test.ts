import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CLIENT_EVENT_TYPES } from "../../shared/session/client-events.ts";
import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { pushToIndex } from "../helpers/worker/index-push.ts";
import { sseResponse } from "../helpers/worker/provider-sse.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { sessionRoom } from "../../worker/objects.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

const ADMIN = "owner-key-" + "e".repeat(20);
/** The sites' provider (a profile), answered by withToolCall's stub. */
const providers = [{ id: "test", baseUrl: "https://provider.test/v1" }];
const json = async (r: Response) => (await r.json()) as any;
const admin = (path: string) => call(path, { headers: { "x-parley-admin-key": ADMIN } });
const Y2099 = Date.parse("2099-01-01T00:00:00Z");

/** The provider's streamed reply: one sample_size call, as a model asks for a browser's tool. */
const toolCallReply = () =>
  sseResponse([
    {
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              { index: 0, id: "call_c1", type: "function", function: { name: "sample_size", arguments: "{}" } },
            ],
          },
          finish_reason: null,
        },
      ],
    },
    { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
  ]);

/** A session whose assistant asked for one of the browser's tools (call_c1, in step s1), through the chat route. */
async function withToolCall(siteKey: string) {
  const s = await openSession("derm-consult", {}, { siteKey });
  vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(toolCallReply());
  const { res, done } = await call("/v1/chat/completions", {
    method: "POST",
    json: { stream: true, messages: [{ id: "q1", role: "user", content: "how many?" }], parley: { replyId: "s1" } },
    headers: auth(s.token),
  });
  expect(res.status).toBe(200);
  await res.text();
  await done();
  vi.restoreAllMocks();
  const state = await sessionRoom(env, s.sessionId).getState();
  expect(state.messages.find((m) => m.id === "s1")?.toolCalls?.[0]?.id).toBe("call_c1");
  return s;
}

const append = (s: { sessionId: string; token: string }, events: unknown[]) =>
  call(`/v1/sessions/${s.sessionId}/events`, { method: "POST", json: { events }, headers: auth(s.token) });

const step = (id: string, data: object, at = Y2099) => ({ id, at, type: "trace.step", data });

describe("a browser's events are data: the worker owns their ids, times and fields", () => {
  it(
    "a forged trace step dated 2099 with tokens and timings moves neither retention " +
      "nor the insights; a browser's own step is stored with the worker's time",
    async () => {
      const siteKey = await putSite({ adminKeySha256: await sha256Hex(ADMIN), retentionDays: 30, providers });
      const s = await withToolCall(siteKey);
      const before = Date.now();
      // The probe: a completion step of the browser's making.
      const forged = step("trace:forged", {
        kind: "completion",
        ok: true,
        detail: { purpose: "chat", promptTokens: 987654321, completionTokens: 1, firstByteMs: 999999 },
      });
      // Dated 2099 (the conversation would never be idle) and dated now (today's insights).
      const probe = await append(s, [forged, { ...forged, id: "trace:forged-now", at: Date.now() }]);
      const refused = probe.res.status;
      // A step of a kind the browser writes, for the call the assistant made, dated 2099 with the same details.
      const own = step("trace:call_c1", {
        kind: "tool",
        name: "anything_else",
        ms: 12,
        ok: false,
        detail: { side: "client", outcome: "error", promptTokens: 987654321, firstByteMs: 999999 },
      });
      expect((await append(s, [own])).res.status).toBe(200);
      const state = await sessionRoom(env, s.sessionId).getState();
      expect(state.trace.filter((t) => t.id.startsWith("trace:forged"))).toEqual([]);
      const kept = state.trace.find((t) => t.id === "trace:call_c1")!;
      expect(kept).toEqual({
        id: "trace:call_c1",
        kind: "tool",
        name: "sample_size",
        ms: 12,
        ok: false,
        detail: { side: "client", outcome: "error" },
        at: kept.at,
      });
      expect(kept.at).toBeGreaterThanOrEqual(before);
      expect(kept.at).toBeLessThanOrEqual(Date.now());

      await pushToIndex(s.sessionId);
      const [row] = (await json((await admin(`/v1/admin/sessions?site=${siteKey}`)).res)).sessions;
      expect(row.lastActivityAt).toBeLessThanOrEqual(Date.now());
      const insights = await json((await admin(`/v1/admin/insights?site=${siteKey}`)).res);
      const today = insights.rows.find((r: any) => r.agent === "derm-consult");
      expect(today.tokens).toBeLessThan(10_000);
      expect(today.ttftP95).toBeLessThan(999_999);
      expect(today).toMatchObject({ toolCalls: 0, toolFailures: 0 });
      expect(refused).toBe(400);

      // Thirty-one days on, the site's retention erases the conversation.
      const index = env.SITE_INDEX.get(env.SITE_INDEX.idFromName(siteKey));
      const later = Date.now() + 31 * 86_400_000;
      vi.spyOn(Date, "now").mockReturnValue(later);
      expect(await runDurableObjectAlarm(index)).toBe(true);
      vi.restoreAllMocks();
      expect((await json((await admin(`/v1/admin/sessions?site=${siteKey}`)).res)).sessions).toEqual([]);
      expect((await sessionRoom(env, s.sessionId).getState()).sessionId).toBe("");
    },
  );

  it("refuses every step kind but the browser's own (400), and every event type the worker owns", async () => {
    const siteKey = await putSite({ providers });
    const s = await withToolCall(siteKey);
    const before = (await sessionRoom(env, s.sessionId).getState()).version;
    for (const kind of ["completion", "retry", "fallback", "classify", "takeover", "crm", "compliance", "x"]) {
      const { res } = await append(s, [step("trace:call_c1", { kind, ok: true })]);
      expect(res.status, kind).toBe(400);
      expect((await json(res)).error.code).toBe("validation_failed");
    }
    const owned = Object.values(EVENT_TYPES).filter((t) => !(CLIENT_EVENT_TYPES as string[]).includes(t));
    expect(owned.length).toBeGreaterThan(10);
    for (const type of owned) {
      const { res } = await append(s, [{ id: `x:${type}`, at: 1, type, data: {} }]);
      // Consent is refused outright (403, test/worker/consent.test.ts): its route is the only way in.
      expect(res.status, type).toBe(type === EVENT_TYPES.consentGiven ? 403 : 400);
    }
    expect((await sessionRoom(env, s.sessionId).getState()).version).toBe(before);
  });

  it("refuses steps about nothing the assistant did, under any other id (403), storing nothing", async () => {
    const siteKey = await putSite({ providers });
    const s = await withToolCall(siteKey);
    const before = (await sessionRoom(env, s.sessionId).getState()).version;
    for (const e of [
      step("trace:call_never", { kind: "tool", ok: true }),
      step("trace:completion:x", { kind: "tool", ok: true }),
      step("crm:x", { kind: "tool", ok: true }),
      step("trace:stopped:q1", { kind: "stopped", ok: true }),
      step("trace:react_q1", { kind: "tool", name: "sample_size", ok: true }),
    ]) {
      const { res } = await append(s, [e]);
      expect(res.status, e.id).toBe(403);
    }
    expect((await sessionRoom(env, s.sessionId).getState()).version).toBe(before);
    // The browser's Stop of the assistant's step, and a text ReAct step's call, are its own.
    const stop = step("trace:stopped:s1", { kind: "stopped", ok: false, detail: { side: "client" } });
    const react = step("trace:react_s1", { kind: "tool", name: "sample_size", ms: 3, ok: true });
    expect((await append(s, [stop, react])).res.status).toBe(200);
    const trace = (await sessionRoom(env, s.sessionId).getState()).trace;
    expect(trace.find((t) => t.id === "trace:stopped:s1")).toMatchObject({ kind: "stopped", ok: true });
    expect(trace.find((t) => t.id === "trace:react_s1")).toMatchObject({ name: "sample_size", ms: 3 });
  });

  it("stores a tool result with the worker's time and only its listed fields", async () => {
    const siteKey = await putSite({ providers });
    const s = await withToolCall(siteKey);
    const before = Date.now();
    const result = {
      id: "msg:t1",
      at: Y2099,
      type: "message.appended",
      data: {
        message: {
          id: "t1",
          role: "tool",
          toolCallId: "call_c1",
          content: '{"n":42}',
          at: Y2099,
          photos: ["p1"],
          status: "complete",
        },
      },
    };
    expect((await append(s, [result])).res.status).toBe(200);
    const state = await sessionRoom(env, s.sessionId).getState();
    const stored = state.messages.find((m) => m.id === "t1")!;
    expect(stored).toEqual({ id: "t1", role: "tool", toolCallId: "call_c1", content: '{"n":42}', at: stored.at });
    expect(stored.at).toBeGreaterThanOrEqual(before);
    expect(stored.at).toBeLessThanOrEqual(Date.now());
    // A staff id, or the id of a stored message, is not a new result's.
    for (const id of ["staff-t2", "q1"]) {
      const other = { ...result, id: `msg:${id}`, data: { message: { ...result.data.message, id } } };
      expect((await append(s, [other])).res.status, id).toBe(403);
    }
  });
});
