import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { webhookOutbox } from "../../../worker/objects.ts";
import { OutboxStore } from "../../../worker/webhooks/outbox-store.ts";
import { addEndpoint, admin, hookSite, receiver, waitFor } from "../../helpers/worker/webhooks.ts";

/**
 * A receiver's Retry-After, at the tests' scale (WEBHOOK_RETRY_SCALE 0.00002, as the schedule is
 * scaled): 25 000 s (about 7 h) is 500 ms here, 90 000 s (25 h) is 1.8 s, past the 1 728 ms that
 * stand for the 24 h of retries.
 */
const SCALED_WAIT_MS = 500;

async function deliveries(siteKey: string): Promise<any[]> {
  const { res } = await admin(siteKey, "/v1/admin/webhook-deliveries");
  expect(res.status).toBe(200);
  return ((await res.json()) as any).deliveries;
}

/** A site with one endpoint at a receiver in this mode, and a test event queued for it. */
async function testEventTo(mode: string) {
  const site = await hookSite();
  const r = receiver(mode);
  const ep = await addEndpoint(site, r.url);
  expect((await admin(site, `/v1/admin/webhooks/${ep.id}/test`, { method: "POST" })).res.status).toBe(202);
  const settled = () =>
    waitFor(
      () => deliveries(site),
      (d) => d[0]?.status !== "pending",
      15_000,
    );
  return { r, settled };
}

describe("a receiver's Retry-After", () => {
  it("holds the next attempt back as long as a 429's Retry-After in seconds asks", async () => {
    const { r, settled } = await testEventTo("wait25000then200");
    const [d] = await settled();
    expect(d).toMatchObject({ status: "delivered", attempts: 2 });
    const [first, second] = await r.log();
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(SCALED_WAIT_MS);
    expect(d.history[1].at - d.history[0].at).toBeGreaterThanOrEqual(SCALED_WAIT_MS);
  });

  it("reads an HTTP date too", async () => {
    const { r, settled } = await testEventTo("date25000then200");
    expect((await settled())[0]).toMatchObject({ status: "delivered", attempts: 2 });
    const [first, second] = await r.log();
    // The date has whole seconds: up to one (20 µs here) less than asked.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(SCALED_WAIT_MS - 1);
  });

  it("spends the steps of the schedule it passed over: the attempts after it keep the schedule's spacing", async () => {
    const { settled } = await testEventTo("wait25000then503");
    const [d] = await settled();
    // About 7 h in: the 10 h, 16 h and 24 h steps are left (720, 1 152 and 1 728 ms here), not the 5 min,
    // 30 min, 2 h and 5 h ones the 503s after the wait would otherwise have taken back to back (a first
    // attempt over 220 ms late would spend the 10 h one too).
    expect(d).toMatchObject({ status: "failed", lastStatus: 503 });
    expect(d.attempts).toBeGreaterThanOrEqual(4);
    expect(d.attempts).toBeLessThanOrEqual(5);
    const at = d.history.map((h: any) => h.at - d.createdAt);
    expect(at[1]).toBeGreaterThanOrEqual(SCALED_WAIT_MS);
    expect(at[2]).toBeGreaterThanOrEqual(720);
    expect(at.at(-2)).toBeGreaterThanOrEqual(1152);
    expect(at.at(-1)).toBeGreaterThanOrEqual(1728);
  });

  it("fails the delivery at once when the wait ends after the 24 h of retries, and says why", async () => {
    const { r, settled } = await testEventTo("wait90000then200");
    const [d] = await settled();
    expect(d).toMatchObject({ status: "failed", attempts: 1, lastStatus: 429, nextAttemptAt: null });
    expect(d.lastError).toBe("HTTP 429; its Retry-After ends after the 24 h of retries");
    expect(await r.log()).toHaveLength(1);
  });

  it("finds an outbox made before it was read with each pending delivery at the step of its attempts", async () => {
    const siteKey = await hookSite();
    const steps = await runInDurableObject(webhookOutbox(env, siteKey), (_o, state) => {
      const sql = state.storage.sql;
      sql.exec("DROP TABLE deliveries");
      sql.exec(
        "CREATE TABLE deliveries (rowid INTEGER PRIMARY KEY AUTOINCREMENT, endpoint TEXT NOT NULL, " +
          "msg_id TEXT NOT NULL, type TEXT NOT NULL, lane TEXT NOT NULL, conversation TEXT, payload TEXT NOT NULL, " +
          "status TEXT NOT NULL, attempts INTEGER NOT NULL, first_at INTEGER NOT NULL, next_at INTEGER, " +
          "created INTEGER NOT NULL, last_status INTEGER, last_error TEXT, last_body TEXT, UNIQUE (endpoint, msg_id))",
      );
      sql.exec(
        "INSERT INTO deliveries (endpoint, msg_id, type, lane, payload, status, attempts, first_at, next_at, created) " +
          "VALUES ('ep_1', 'm1', 'webhook.test', 'm1', '{}', 'pending', 3, 0, 1, 0)",
      );
      return new OutboxStore(sql).heads(5).map((h) => [h.attempts, h.step]);
    });
    expect(steps).toEqual([[3, 3]]);
  });
});
