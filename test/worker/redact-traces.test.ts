import { addEndpoint, HOOK_ADMIN, receiver, verified, waitFor } from "../helpers/worker/webhooks.ts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import type { SessionResponse } from "../../shared/wire/api.ts";
import type { SessionSummary } from "../../shared/session/session-summary.ts";
import { traceEvent } from "../../shared/chat/step-events.ts";
import { auth, call, openSession, readSse } from "../helpers/worker/client.ts";
import { pushToIndex } from "../helpers/worker/index-push.ts";
import { delta, sseResponse } from "../helpers/worker/provider-sse.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { sessionRoom } from "../../worker/objects.ts";

/**
 * The site switch `redactTraces`: what staff and logs read beside the transcript (trace steps, owner
 * notes, the index's rows, the CRM webhook's note, the strategy desk's queue) carries typed placeholders
 * for a visitor's e-mail, phone, identity numbers, birth date and address; the transcript keeps them.
 * A site stored without the switch keeps its behaviour: nothing is redacted.
 */
const EMAIL = "jane.roe@example.com";
const PHONE = "07700 900123";
const SAID = `My email is ${EMAIL}, call me on ${PHONE}. I have a rash on my arm.`;
const json = async (r: Response) => (await r.json()) as any;
const admin = (siteKey: string, path: string) =>
  call(`${path}${path.includes("?") ? "&" : "?"}site=${siteKey}`, {
    headers: { "x-parley-admin-key": HOOK_ADMIN },
  });

afterEach(() => vi.restoreAllMocks());

/**
 * A site with the switch on, off, or stored without it (undefined: left out of the stored JSON); its
 * provider is a profile, answered by the turn's stub.
 */
async function site(redactTraces: boolean | undefined) {
  const providers = [{ id: "test", baseUrl: "https://provider.test/v1" }];
  return putSite({ redactTraces, adminKeySha256: await sha256Hex(HOOK_ADMIN), providers });
}

/** A streamed turn of the sales coach whose reply repeats the visitor's details with a banned claim. */
async function turn(siteKey: string): Promise<SessionResponse> {
  vi.spyOn(globalThis, "fetch").mockResolvedValue(
    sseResponse([delta(`Final Answer: I noted ${EMAIL} and ${PHONE}. `), delta("Our cream cures eczema.", "stop")]),
  );
  const s = await openSession("sales-coach", {}, { siteKey });
  const { res, done } = await call("/v1/chat/completions", {
    method: "POST",
    headers: auth(s.token),
    json: { stream: true, messages: [{ id: "q1", role: "user", content: SAID }], parley: { replyId: "r1" } },
  });
  await readSse(res);
  await done();
  return s;
}

describe("redactTraces on", () => {
  it("stores the reply's compliance step redacted in every view of the trace; the transcript keeps it", async () => {
    const siteKey = await site(true);
    const s = await turn(siteKey);
    const state = await sessionRoom(env, s.sessionId).getState();
    const step = state.trace.find((t) => t.name === "compliance")!;
    expect(step.detail).toMatchObject({ replyId: "r1", violations: "claim: cures" });
    expect(String(step.detail!.rewrite)).toContain("I noted [email] and [phone].");
    // The transcript keeps the visitor's words and the reply for the owner.
    expect(state.messages.find((m) => m.id === "q1")?.content).toBe(SAID);
    expect(state.messages.find((m) => m.id === "r1")?.content).toContain(EMAIL);
    for (const path of [`/v1/sessions/${s.sessionId}/trace`]) {
      const text = await (await call(path, { headers: auth(s.token) })).res.text();
      expect(text).toContain("[email]");
      expect(text).not.toContain(EMAIL);
    }
    const owner = await (await admin(siteKey, `/v1/admin/sessions/${s.sessionId}/trace`)).res.text();
    expect(owner).toContain("[phone]");
    expect(owner).not.toContain(EMAIL);
    expect(owner).not.toContain(PHONE);
  });

  it("redacts every trace step and owner note the worker's paths append, ids and model names left whole", async () => {
    const s = await openSession("derm-consult", {}, { siteKey: await site(true) });
    const room = sessionRoom(env, s.sessionId);
    const step = traceEvent("trace:t1", {
      kind: "tool",
      name: "web_search",
      ok: false,
      detail: { callId: "call_0123456789", model: "gpt-4o-2024-08-06", error: `No results for ${EMAIL}` },
    });
    await room.append([step], [{ step: "trace:t1", text: `Provider refused: born 12/03/1985, NHS 943 476 5919` }]);
    const owner = (await room.ownerState()).trace.find((t) => t.id === "trace:t1")!;
    expect(owner.detail).toEqual({
      callId: "call_0123456789",
      model: "gpt-4o-2024-08-06",
      error: "No results for [email]",
      providerMessage: "Provider refused: born [birth-date], NHS [id-number]",
    });
  });

  it("gives the site's index the first message redacted: the list, its search and its export", async () => {
    const siteKey = await site(true);
    const s = await turn(siteKey);
    await pushToIndex(s.sessionId);
    const list = await json((await admin(siteKey, "/v1/admin/sessions")).res);
    const row = list.sessions.find((r: SessionSummary) => r.sessionId === s.sessionId);
    expect(row.firstText).toBe("My email is [email], call me on [phone]. I have a rash on my arm.");
    expect((await json((await admin(siteKey, `/v1/admin/sessions?q=${EMAIL}`)).res)).sessions).toEqual([]);
    const csv = await (await admin(siteKey, "/v1/admin/exports/sessions?format=csv")).res.text();
    expect(csv).toContain("[email]");
    expect(csv).not.toContain(EMAIL);
  });

  it("sends the CRM webhook its note redacted; the idempotency key still names the call as made", async () => {
    const siteKey = await site(true);
    const r = receiver();
    const ep = await addEndpoint(siteKey, r.url, ["crm.action"]);
    const s = await openSession("sales-coach", {}, { siteKey });
    const args = { action: "log_follow_up", dealId: "D-42", note: `Call Dr Lee back on ${PHONE} or ${EMAIL}` };
    const { res, done } = await call("/v1/tools/crm_action", {
      method: "POST",
      headers: auth(s.token),
      json: { arguments: args },
    });
    expect(res.status).toBe(200);
    await done();
    const [hook] = await waitFor(r.log, (l) => l.length >= 1);
    expect(verified(hook, ep.secret).data).toMatchObject({
      action: "log_follow_up",
      dealId: "D-42",
      note: "Call Dr Lee back on [phone] or [email]",
    });
  });

  it("quotes a thumbs-down's comment and the conversation to the strategy desk redacted", async () => {
    const siteKey = await site(true);
    const s = await turn(siteKey);
    const { res, done } = await call(`/v1/sessions/${s.sessionId}/feedback`, {
      method: "POST",
      headers: auth(s.token),
      json: { messageId: "r1", rating: "down", comment: `Do not repeat my number ${PHONE} back to me` },
    });
    expect(res.status).toBe(201);
    await done();
    const queue = JSON.stringify((await json((await admin(siteKey, "/v1/admin/desk/sales-coach/queue")).res)).queue);
    expect(queue).toContain("Do not repeat my number [phone] back to me");
    expect(queue).toContain("My email is [email]");
    expect(queue).not.toContain(PHONE);
    expect(queue).not.toContain(EMAIL);
  });
});

describe("a site stored without redactTraces keeps its behaviour", () => {
  it("stores the trace and the index row as they were", async () => {
    const siteKey = await site(undefined);
    const s = await turn(siteKey);
    const step = (await sessionRoom(env, s.sessionId).getState()).trace.find((t) => t.name === "compliance")!;
    expect(String(step.detail!.rewrite)).toContain(`I noted ${EMAIL} and ${PHONE}.`);
    await pushToIndex(s.sessionId);
    const list = await json((await admin(siteKey, "/v1/admin/sessions")).res);
    expect(list.sessions.find((r: SessionSummary) => r.sessionId === s.sessionId).firstText).toBe(SAID);
  });
});

describe("the export's redacted variant (?redacted=1), for sharing", () => {
  it("replaces the details in transcript, stage values, contacts and trace; the plain export keeps them", async () => {
    const siteKey = await site(undefined);
    const s = await turn(siteKey);
    await sessionRoom(env, s.sessionId).append([
      {
        id: "ctx:1",
        at: Date.now(),
        type: "context.updated",
        data: { stageId: "intake", values: { date_of_birth: "1985-03-12", city: "Leeds" }, source: "visitor" },
      },
      { id: "contact:1", at: Date.now(), type: "contact.left", data: { name: "Jane Roe", contact: EMAIL } },
    ]);
    const plain = await (await admin(siteKey, `/v1/admin/sessions/${s.sessionId}/export?format=json`)).res.text();
    expect(plain).toContain(EMAIL);
    const shared = await admin(siteKey, `/v1/admin/sessions/${s.sessionId}/export?format=json&redacted=1`);
    expect(shared.res.headers.get("content-disposition")).toContain(`conversation-${s.sessionId}-redacted.json`);
    const state = await json(shared.res);
    const text = JSON.stringify(state);
    for (const detail of [EMAIL, PHONE, "1985-03-12", "Jane Roe"]) expect(text).not.toContain(detail);
    expect(state.messages[0].content).toBe("My email is [email], call me on [phone]. I have a rash on my arm.");
    expect(state.context.intake).toEqual({ date_of_birth: "[birth-date]", city: "Leeds" });
    expect(state.contacts).toEqual([{ at: expect.any(Number), contact: "[contact]", name: "[name]" }]);
    expect(state.trace.find((t: { name?: string }) => t.name === "compliance").detail.rewrite).toContain("[email]");
    const csv = await (
      await admin(siteKey, `/v1/admin/sessions/${s.sessionId}/export?format=csv&redacted=1`)
    ).res.text();
    expect(csv).toContain("[phone]");
    expect(csv).not.toContain(PHONE);
  });

  it("refuses a redacted value it does not know (400 JSON)", async () => {
    const siteKey = await site(undefined);
    const { res } = await admin(siteKey, "/v1/admin/exports/sessions?redacted=yes");
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe("validation_failed");
  });
});
