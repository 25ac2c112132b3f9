import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { SessionResponse } from "../../shared/wire/api.ts";
import { FAILURES, type ProviderFailureCase } from "../helpers/provider-failures.ts";
import { auth, call } from "../helpers/worker/client.ts";
import { providerSite, putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { sessionRoom } from "../../worker/objects.ts";

/**
 * A provider that refuses a turn answers text about the owner's account (a masked key, an
 * organisation, an internal URL). The visitor gets the code and a generic text in their language,
 * in the answer and in everything of the session they can read (its state, its trace, the log the
 * live channel sends); the owner's trace has the provider's words, with nothing key-like in them.
 * The provider fake answers on a real socket (upstream-setup.ts, `/fail/<status>/…`).
 */
const BASE = inject("providerUpstreamUrl");
const ADMIN = "owner-key-" + "p".repeat(20);
const adminKeySha256 = sha256Hex(ADMIN);
const site = adminKeySha256.then((hash) => putSite({ adminKeySha256: hash }));
/** A site whose provider (its profile; the key is the worker's LLM_API_KEY) answers that status's error. */
const failingSite = async (status: number) =>
  providerSite(`${BASE}/fail/${status}/v1`, { adminKeySha256: await adminKeySha256 });
const CODE = { 401: "misconfigured", 403: "misconfigured", 429: "upstream_busy", 500: "upstream_error" } as const;

async function open(locale: string, siteKey?: string) {
  const json = { siteKey: siteKey ?? (await site), agentId: "derm-consult", locale };
  const { res } = await call("/v1/sessions", { method: "POST", json });
  expect(res.status).toBe(201);
  return (await res.json()) as SessionResponse;
}

/** Everything of the session its visitor can read: the answer, the state, the trace route, the whole log. */
async function visitorView(s: SessionResponse, answer: string) {
  const state = await call(`/v1/sessions/${s.sessionId}`, { headers: auth(s.token) });
  const trace = await call(`/v1/sessions/${s.sessionId}/trace`, { headers: auth(s.token) });
  expect([state.res.status, trace.res.status]).toEqual([200, 200]);
  const log = JSON.stringify(await sessionRoom(env, s.sessionId).getEvents());
  // The failed completion is in it (with its code), only not the provider's words.
  expect(log).toMatch(/"kind":"completion".*"status":"failed"/);
  return [answer, await state.res.text(), await trace.res.text(), log].join("\n");
}

async function ownerTrace(sessionId: string, siteKey?: string) {
  const { res } = await call(`/v1/admin/sessions/${sessionId}/trace?site=${siteKey ?? (await site)}`, {
    headers: { "x-parley-admin-key": ADMIN },
  });
  expect(res.status).toBe(200);
  const { trace } = (await res.json()) as { trace: Array<{ kind: string; detail?: Record<string, unknown> }> };
  return trace.find((t) => t.kind === "completion")!;
}

async function refusedTurn(f: ProviderFailureCase, stream: boolean, locale: "en" | "zh-CN") {
  const siteKey = await failingSite(f.status);
  // A streamed turn (the widget's) is answered in the session's language, an unstreamed one in the request's.
  const s = await open(stream ? locale : "en", siteKey);
  const json = { stream, messages: [{ id: "u1", role: "user", content: "Is this mole normal?" }] };
  const headers = { ...auth(s.token), "accept-language": stream ? "en" : locale };
  const { res, done } = await call("/v1/chat/completions", { method: "POST", json, headers });
  const answer = await res.text();
  await done();
  return { s, siteKey, res, answer };
}

describe("a provider's error text reaches the owner's trace, never the visitor", () => {
  FAILURES.forEach((f, i) => {
    for (const stream of [true, false]) {
      const locale = i % 2 ? "en" : "zh-CN";
      it(`${f.status}, ${stream ? "streamed" : "unstreamed"}: a generic ${locale} text for the visitor`, async () => {
        const { s, siteKey, res, answer } = await refusedTurn(f, stream, locale);
        const code = CODE[f.status];
        expect(res.status).toBe(f.status === 429 ? 503 : 502);
        const { error } = JSON.parse(answer) as { error: { code: string; message: string; status: number } };
        expect(error).toMatchObject({ code, status: f.status });
        // The visitor's language: Chinese for a zh-CN visitor, else English.
        expect(/[\u4e00-\u9fff]/.test(error.message)).toBe(locale === "zh-CN");

        const seen = await visitorView(s, answer);
        expect(seen).not.toContain(f.said);
        if (f.secret) expect(seen).not.toContain(f.secret);
        expect(seen).not.toContain(new URL(BASE).host);

        const step = await ownerTrace(s.sessionId, siteKey);
        expect(step.detail).toMatchObject({ status: "failed", error: code });
        const note = String(step.detail!.providerMessage);
        expect(note).toContain(f.said);
        expect(note).toContain(`${f.status}`);
        if (f.secret) {
          expect(note).not.toContain(f.secret);
          expect(note).toContain("[redacted]");
        }
      });
    }
  });

  it("the key the worker sent is removed from what the owner reads, whatever its shape", async () => {
    // A provider that quotes the key back; this one has no vendor's shape the patterns know.
    const key = "plain.key.without.a.known.shape";
    const vars = { LLM_BASE_URL: `${BASE}/fail/echo/v1`, LLM_API_KEY: key };
    const s = await open("en");
    const json = { messages: [{ role: "user", content: "hello" }] };
    const { res, done } = await call("/v1/chat/completions", { method: "POST", json, headers: auth(s.token) }, vars);
    expect(res.status).toBe(502);
    expect(await res.text()).not.toContain(key);
    await done();
    const note = String((await ownerTrace(s.sessionId)).detail!.providerMessage);
    expect(note).toContain("Invalid credentials");
    expect(note).not.toContain(key);
  });
});
