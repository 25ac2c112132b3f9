import { describe, expect, it } from "vitest";
import { auth, call, openSession } from "../../helpers/worker/client.ts";
import { addEndpoint, admin, hookSite, receiver, verified, waitFor } from "../../helpers/worker/webhooks.ts";

/** Signed deliveries from the site's outbox, verified as a receiver verifies them (standardwebhooks). */
async function turn(token: string, text: string, replyId: string) {
  const { res, done } = await call("/v1/chat/completions", {
    method: "POST",
    headers: auth(token),
    json: { stream: true, messages: [{ id: `u-${replyId}`, role: "user", content: text }], parley: { replyId } },
  });
  await res.text();
  await done();
}

async function deliveries(siteKey: string, query = ""): Promise<any[]> {
  const { res } = await admin(siteKey, `/v1/admin/webhook-deliveries${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as any).deliveries;
}

describe("signed webhooks", () => {
  it("signs every delivery per Standard Webhooks and sends a conversation's events in order", async () => {
    const site = await hookSite();
    const r = receiver();
    const ep = await addEndpoint(site, r.url, ["conversation.started", "message.created", "feedback.given"]);
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const s = await openSession("sales-coach", {}, { siteKey: site });
    await turn(s.token, "hello", "r1");
    const got = await waitFor(r.log, (l) => l.length >= 3);
    const bodies = got.map((h) => verified(h, ep.secret));
    expect(bodies.map((b) => [b.type, b.data.message?.role ?? null])).toEqual([
      ["conversation.started", null],
      ["message.created", "user"],
      ["message.created", "assistant"],
    ]);
    expect(bodies.every((b) => b.data.conversation === s.sessionId && b.data.agentId === "sales-coach")).toBe(true);
    expect(bodies[1].data.message.text).toBe("hello");
    expect(new Set(got.map((h) => h.headers["webhook-id"])).size).toBe(3);
    // A body changed on the way, or signed with another secret, does not verify.
    expect(() => verified({ ...got[0], body: got[0].body.replace("started", "startex") }, ep.secret)).toThrow();
    const other = await addEndpoint(site, receiver().url);
    expect(() => verified(got[0], other.secret)).toThrow();
  });

  it("leaves message.created off unless the endpoint lists it", async () => {
    const site = await hookSite();
    const r = receiver();
    const ep = await addEndpoint(site, r.url);
    const s = await openSession("sales-coach", {}, { siteKey: site });
    await turn(s.token, "hello", "r1");
    const got = await waitFor(r.log, (l) => l.length >= 1);
    await new Promise((res) => setTimeout(res, 300));
    expect((await r.log()).map((h) => verified(h, ep.secret).type)).toEqual(["conversation.started"]);
    expect(got).toHaveLength(1);
  });

  it("signs with the old secret too while a rotation's overlap lasts, with the new one only after", async () => {
    const site = await hookSite();
    const r = receiver();
    const ep = await addEndpoint(site, r.url);
    const rotate = async (overlapMinutes: number) => {
      const { res } = await admin(site, `/v1/admin/webhooks/${ep.id}/rotate`, {
        method: "POST",
        json: { overlapMinutes },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as any).endpoint as { secret: string; previousSecretUntil: number | null };
    };
    const test = async () =>
      expect((await admin(site, `/v1/admin/webhooks/${ep.id}/test`, { method: "POST" })).res.status).toBe(202);
    const second = await rotate(60);
    expect(second.secret).not.toBe(ep.secret);
    expect(second.previousSecretUntil).toBeGreaterThan(Date.now() + 59 * 60_000);
    await test();
    const [during] = await waitFor(r.log, (l) => l.length >= 1);
    expect(verified(during, ep.secret).type).toBe("webhook.test");
    expect(verified(during, second.secret).type).toBe("webhook.test");
    const third = await rotate(0);
    await test();
    const after = (await waitFor(r.log, (l) => l.length >= 2))[1];
    expect(verified(after, third.secret).type).toBe("webhook.test");
    expect(() => verified(after, second.secret)).toThrow();
    expect(after.headers["webhook-signature"].split(" ")).toHaveLength(1);
  });

  it("retries 5xx on the schedule up to 24 h, then marks it failed; the conversation waits its turn", async () => {
    const site = await hookSite();
    const dead = receiver("503");
    await addEndpoint(site, dead.url, ["conversation.started", "message.created"]);
    const started = Date.now();
    const s = await openSession("sales-coach", {}, { siteKey: site });
    await turn(s.token, "hello", "r1");
    const rows = await waitFor(
      () => deliveries(site),
      (d) => d.length === 3 && d.every((x: any) => x.status === "failed"),
      15_000,
    );
    const first = rows.find((d) => d.type === "conversation.started");
    expect(first).toMatchObject({ status: "failed", attempts: 9, lastStatus: 503, nextAttemptAt: null });
    expect(first.lastResponse).toContain("try later");
    const at = first.history.map((h: any) => h.at - first.createdAt);
    // The schedule's 24 h at the test's scale (0.00002): the last attempt 1 728 ms after the event was queued.
    expect(at.at(-1)).toBeGreaterThanOrEqual(1728);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    // In order: the message events were not tried before the conversation's first event was given up.
    const log = await dead.log();
    const types = log.map((h) => JSON.parse(h.body).type);
    expect(types.slice(0, 9)).toEqual(Array(9).fill("conversation.started"));
    expect(log).toHaveLength(27);
    console.info(
      `failing receiver (503): ${log.length} attempts for 3 events, each retried 9 times over ` +
        `${at.at(-1)} ms (24 h at scale 0.00002), all failed ${Date.now() - started} ms after the session opened`,
    );
  });

  it("delivers after a receiver recovers, in order; 429 is retried and another 4xx is final", async () => {
    const site = await hookSite();
    const flaky = receiver("fail3");
    const ep = await addEndpoint(site, flaky.url, ["conversation.started", "message.created"]);
    const s = await openSession("sales-coach", {}, { siteKey: site });
    await turn(s.token, "hello", "r1");
    const log = await waitFor(flaky.log, (l) => l.length >= 6);
    const types = log.map((h) => verified(h, ep.secret).type);
    expect(types).toEqual([...Array(4).fill("conversation.started"), "message.created", "message.created"]);
    // Every attempt of one event carries the same webhook-id, so the receiver can dedupe.
    expect(new Set(log.slice(0, 4).map((h) => h.headers["webhook-id"])).size).toBe(1);
    for (const [mode, attempts, status] of [
      ["429", 9, "failed"],
      ["400", 1, "failed"],
    ] as const) {
      const other = await hookSite();
      await addEndpoint(other, receiver(mode).url);
      await openSession("sales-coach", {}, { siteKey: other });
      const [d] = await waitFor(
        () => deliveries(other),
        (d) => d.length > 0 && d[0].status !== "pending",
        15_000,
      );
      expect([d.attempts, d.status, d.lastStatus]).toEqual([attempts, status, Number(mode)]);
    }
  });

  it("resends a delivery and sends a test event from the console's routes", async () => {
    const site = await hookSite();
    const r = receiver("400");
    const ep = await addEndpoint(site, r.url);
    await openSession("sales-coach", {}, { siteKey: site });
    const [failed] = await waitFor(
      () => deliveries(site),
      (d) => d[0]?.status === "failed",
    );
    const resend = await admin(site, `/v1/admin/webhook-deliveries/${failed.id}/resend`, { method: "POST" });
    expect(resend.res.status).toBe(202);
    const log = await waitFor(r.log, (l) => l.length >= 2);
    expect(log[1].headers["webhook-id"]).toBe(log[0].headers["webhook-id"]);
    const [again] = await waitFor(
      () => deliveries(site),
      (d) => d[0]?.attempts === 2 && d[0]?.status !== "pending",
    );
    expect(again.history).toHaveLength(2);
    const missing = await admin(site, `/v1/admin/webhook-deliveries/999999/resend`, { method: "POST" });
    expect(missing.res.status).toBe(404);
    expect(((await missing.res.json()) as any).error.code).toBe("not_found");
    const ok = receiver();
    const okEp = await addEndpoint(site, ok.url);
    expect((await admin(site, `/v1/admin/webhooks/${okEp.id}/test`, { method: "POST" })).res.status).toBe(202);
    const [test] = await waitFor(ok.log, (l) => l.length >= 1);
    expect(verified(test, okEp.secret)).toMatchObject({ type: "webhook.test" });
    expect((await deliveries(site, `?endpoint=${okEp.id}&status=delivered`)).map((d) => d.type)).toEqual([
      "webhook.test",
    ]);
    expect(ep.id).not.toBe(okEp.id);
  });

  it("does not slow a visitor's turn when the receiver never answers", async () => {
    const time = async (site: string) => {
      const s = await openSession("sales-coach", {}, { siteKey: site });
      const t0 = performance.now();
      await turn(s.token, "hello", "r1");
      return Math.round(performance.now() - t0);
    };
    const none = await hookSite();
    const hung = await hookSite();
    const r = receiver("hang");
    await addEndpoint(hung, r.url, ["conversation.started", "message.created"]);
    const without: number[] = [];
    const withHung: number[] = [];
    for (let i = 0; i < 5; i++) {
      without.push(await time(none));
      withHung.push(await time(hung));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2];
    console.info(`a turn: ${median(without)} ms with no endpoint, ${median(withHung)} ms with one that never answers`);
    // The receiver was reached, and each attempt waits its 500 ms: a turn that waited on one would take longer.
    expect((await waitFor(r.log, (l) => l.length >= 1)).length).toBeGreaterThan(0);
    expect(median(withHung)).toBeLessThan(500);
    const rows = await waitFor(
      () => deliveries(hung),
      (d) => d.some((x: any) => x.lastError),
    );
    expect(rows.find((d) => d.lastError)?.lastError).toBe("no answer within 500 ms");
  });

  it("forgets what was queued about an erased conversation and tells the endpoint it was erased", async () => {
    const site = await hookSite();
    await addEndpoint(site, receiver("hang").url, ["conversation.started", "conversation.erased"]);
    const s = await openSession("sales-coach", {}, { siteKey: site });
    await waitFor(
      () => deliveries(site),
      (d) => d.length === 1,
    );
    const { res } = await admin(site, `/v1/admin/sessions/${s.sessionId}`, { method: "DELETE" });
    expect(res.status).toBeLessThan(300);
    const rows = await deliveries(site);
    expect(rows.map((d) => [d.type, d.conversation])).toEqual([["conversation.erased", s.sessionId]]);
  });
});
