import { afterEach, describe, expect, it, vi } from "vitest";
import { openSession, auth, call } from "../helpers/worker/client.ts";
import { delta, sseResponse } from "../helpers/worker/provider-sse.ts";
import { providerSite, sha256Hex } from "../helpers/worker/sites.ts";
import { PROVIDER_URL } from "../helpers/worker/scripted-provider.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { ADMIN, json, stateOf, staff, takeoverSite, visitor } from "../helpers/worker/takeover.ts";
import type { LiveOverview, PersonRequestResponse } from "../../shared/takeover/takeover-api.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

describe("asking for a person", () => {
  it("is answered 'nobody available' while no staff member has the Live page open; the contact is stored", async () => {
    const siteKey = await takeoverSite();
    const s = await openSession("derm-consult", {}, { siteKey });
    const v = visitor(s.token, s.sessionId);
    const res = await v.ask("I want to change my appointment");
    expect(res.status).toBe(200);
    const body = await json<PersonRequestResponse>(res);
    expect(body.status).toBe("unavailable");
    expect(body.reason).toBe("no_staff");
    expect(body.message).toMatch(/Nobody from our team/);
    expect(body.events.map((e) => e.type)).toEqual(["person.requested", "person.unavailable"]);

    const left = await v.contact({ name: "Ana", contact: "ana@example.com", note: "after 5 pm" });
    expect(left.status).toBe(201);
    const state = await stateOf(s.sessionId);
    expect(state.contacts).toMatchObject([{ name: "Ana", contact: "ana@example.com", note: "after 5 pm" }]);
    expect(state.personRequest?.status).toBe("unavailable");
    expect((await v.contact({ contact: "x" })).status).toBe(400);
  });

  it("queues the conversation while staff are present, listed with its waiting time", async () => {
    const siteKey = await takeoverSite();
    const mei = await staff(siteKey);
    const beat = await mei.beat();
    expect(await json(beat)).toMatchObject({ present: 1, available: true });
    const s = await openSession("derm-consult", {}, { siteKey });
    const res = await visitor(s.token, s.sessionId).ask("billing");
    expect(await json(res)).toMatchObject({ status: "queued" });
    // Asked again: one place in the queue, the first time kept.
    expect(await json(await visitor(s.token, s.sessionId).ask())).toMatchObject({ status: "queued", events: [] });

    const live = await json<LiveOverview>(await mei.get("/v1/admin/live"));
    const queued = live.queue.find((q) => q.sessionId === s.sessionId)!;
    expect(queued).toMatchObject({ by: "visitor", reason: "billing", agentId: "derm-consult" });
    expect(queued.waitingMs).toBeGreaterThanOrEqual(0);
    expect(live.staff).toMatchObject({ present: 1, available: true, enabled: true, withinHours: true });

    // The Live page closed: nobody is present any more.
    expect((await mei.send("DELETE", "/v1/admin/live/presence")).status).toBe(204);
    expect((await json<LiveOverview>(await mei.get("/v1/admin/live"))).staff).toMatchObject({
      present: 0,
      available: false,
    });
  });

  it("is 'outside hours' when the site is closed, whoever is present", async () => {
    // A window that is never now: one minute, yesterday's weekday, in UTC.
    const now = new Date();
    const day = (now.getUTCDay() + 6) % 7;
    const hours = { timeZone: "UTC", windows: [{ days: [day], from: "00:00", to: "00:01" }] };
    const siteKey = await takeoverSite({
      enabled: true,
      hours,
      unavailableMessage: { en: "Closed now", "zh-CN": "休息中" },
    });
    await (await staff(siteKey)).beat();
    const s = await openSession("derm-consult", {}, { siteKey });
    const body = await json<PersonRequestResponse>(await visitor(s.token, s.sessionId).ask());
    expect(body).toMatchObject({ status: "unavailable", reason: "outside_hours", message: "Closed now" });
  });

  it("is refused on a site without takeover, and the model is not offered ask_for_person there", async () => {
    // Its provider is a profile's, answered by the stub below.
    const siteKey = await providerSite(PROVIDER_URL, { adminKeySha256: await sha256Hex(ADMIN) });
    const s = await openSession("derm-consult", {}, { siteKey });
    const res = await visitor(s.token, s.sessionId).ask();
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe("takeover_disabled");
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(sseResponse([delta("Hi")]));
    const { res: chat, done } = await visitor(s.token, s.sessionId).chat([{ id: "u1", role: "user", content: "hi" }]);
    await chat.text();
    await done();
    const sent = JSON.parse((fetchSpy.mock.calls[0][1] as RequestInit).body as string);
    expect((sent.tools ?? []).map((t: any) => t.function.name)).not.toContain("ask_for_person");
  });

  it("offers the agent ask_for_person where takeover is on; the tool queues the conversation", async () => {
    // Its provider is a profile, answered by the stub below.
    const siteKey = await takeoverSite(undefined, PROVIDER_URL);
    await (await staff(siteKey)).beat();
    const s = await openSession("derm-consult", {}, { siteKey });
    expect(s.agent.tools).toContain("ask_for_person");
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(sseResponse([delta("Hi")]));
    const { res: chat, done } = await visitor(s.token, s.sessionId).chat([{ id: "u1", role: "user", content: "hi" }]);
    await chat.text();
    await done();
    const sent = JSON.parse((fetchSpy.mock.calls[0][1] as RequestInit).body as string);
    expect(sent.tools.map((t: any) => t.function.name)).toContain("ask_for_person");
    vi.restoreAllMocks();
    const { res } = await call("/v1/tools/ask_for_person", {
      method: "POST",
      json: { arguments: { reason: "wants a refund" }, callId: "c1" },
      headers: auth(s.token),
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.result.status).toBe("queued");
    expect((await stateOf(s.sessionId)).personRequest).toMatchObject({ by: "agent", reason: "wants a refund" });
  });
});
