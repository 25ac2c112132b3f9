import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { BudgetLeases, type Reservation } from "../../worker/limits/budget-lease.ts";
import { RateLeases, rateSliceCap } from "../../worker/limits/rate-lease.ts";
import { SlidingWindow } from "../../worker/limits/sliding-window.ts";
import { utcDay } from "../../worker/limits/site-ledger.ts";
import { turnReserve, utf8Bytes } from "../../worker/limits/turn-cost.ts";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { delta, sseResponse, usage } from "../helpers/worker/provider-sse.ts";
import { putSite } from "../helpers/worker/sites.ts";
import { rateLimiter, siteLedger } from "../../worker/objects.ts";

afterEach(() => vi.restoreAllMocks());

/**
 * The lease bounds docs/limits.md states, over several "isolates" (each its own BudgetLeases or
 * RateLeases, as each isolate holds its own) against the real Durable Objects in workerd.
 */
const ISOLATES = 6;
const day = utcDay();
const newKey = (what: string) => `${what}-${crypto.randomUUID()}`;
/** Background refills, awaited at the end as waitUntil would keep them. */
function backgrounds() {
  const pending: Promise<unknown>[] = [];
  return { run: (p: Promise<unknown>) => void pending.push(p), settle: () => Promise.all(pending) };
}
const random = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));

function budgetIsolates() {
  return Array.from(
    { length: ISOLATES },
    () =>
      new BudgetLeases((siteKey, d, budget, want, report) => siteLedger(env, siteKey).lease(d, budget, want, report)),
  );
}

describe("site budget slices", () => {
  it("many concurrent turns over several isolates never spend more than the day's budget", async () => {
    const siteKey = newKey("site");
    const budget = 120_000;
    const isolates = budgetIsolates();
    const bg = backgrounds();
    let admitted = 0,
      refused = 0,
      spent = 0;
    // Waves of concurrent turns on every isolate; each spends at most what it reserved (a provider
    // never counts more than the request's bytes plus max_tokens).
    for (let wave = 0; wave < 8; wave++) {
      await Promise.all(
        isolates.flatMap((iso) =>
          Array.from({ length: 8 }, async () => {
            const reserve = random(1_000, 4_000);
            const r = await iso.reserve(siteKey, day, budget, reserve, bg.run);
            if (!r) return void refused++;
            admitted++;
            await new Promise((res) => setTimeout(res, random(0, 3)));
            const used = random(0, reserve);
            spent += used;
            r.settle(used);
          }),
        ),
      );
    }
    await bg.settle();
    for (const iso of isolates) await iso.flush();
    // The budget ran out: some turns were refused, and what was spent stayed within it.
    expect(refused).toBeGreaterThan(0);
    expect(admitted).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(budget);
    expect(await siteLedger(env, siteKey).spent(day)).toBe(spent);
  }, 30_000);

  it("turns that spend beyond their reservation overshoot by exactly that much, no more", async () => {
    const siteKey = newKey("site");
    const budget = 50_000;
    const isolates = budgetIsolates();
    const bg = backgrounds();
    let spent = 0,
      beyond = 0;
    for (let wave = 0; wave < 10; wave++) {
      await Promise.all(
        isolates.flatMap((iso) =>
          Array.from({ length: 5 }, async () => {
            const reserve = 1_000;
            const r: Reservation | null = await iso.reserve(siteKey, day, budget, reserve, bg.run);
            if (!r) return;
            const used = random(500, 1_600);
            spent += used;
            beyond += Math.max(0, used - reserve);
            r.settle(used);
          }),
        ),
      );
    }
    await bg.settle();
    for (const iso of isolates) await iso.flush();
    expect(beyond).toBeGreaterThan(0);
    expect(spent).toBeGreaterThan(budget - 1_000 * ISOLATES * 5);
    expect(spent).toBeLessThanOrEqual(budget + beyond);
    expect(await siteLedger(env, siteKey).spent(day)).toBe(spent);
  }, 30_000);

  it("asks the site's ledger about once per slice, not once per turn", async () => {
    const siteKey = newKey("site");
    const budget = 10_000_000;
    const iso = budgetIsolates()[0];
    const bg = backgrounds();
    const before = await siteLedger(env, siteKey).calls();
    for (let i = 0; i < 400; i++) {
      const r = await iso.reserve(siteKey, day, budget, 3_000, bg.run);
      r!.settle(1_200);
    }
    await bg.settle();
    const calls = (await siteLedger(env, siteKey).calls()) - before;
    // A slice of 200 000 tokens, refilled at half: about one call per 80 turns of 1 200 tokens.
    expect(calls / 400).toBeLessThanOrEqual(0.05);
  });

  it("a turn's reservation is its cap plus its request's UTF-8 bytes", () => {
    expect(utf8Bytes("aé€😀")).toBe(1 + 2 + 3 + 4);
    const json = JSON.stringify({ max_tokens: 800, messages: [{ role: "user", content: "你好" }] });
    expect(turnReserve({ max_tokens: 800 }, json)).toBe(800 + new TextEncoder().encode(json).length);
  });
});

describe("IP rate slices", () => {
  it("within one window, isolates together never admit more than the limit", async () => {
    const key = newKey("ip");
    const limit = 100;
    const bg = backgrounds();
    const isolates = Array.from(
      { length: ISOLATES },
      () => new RateLeases((k, l, want) => rateLimiter(env, k).lease(l, want)),
    );
    let ok = 0;
    for (let round = 0; round < 20; round++) {
      const results = await Promise.all(
        isolates.flatMap((iso) => [iso.take(key, limit, bg.run), iso.take(key, limit, bg.run)]),
      );
      ok += results.filter((r) => r.ok).length;
    }
    await bg.settle();
    expect(ok).toBeLessThanOrEqual(limit);
    expect(ok).toBeGreaterThan(limit - ISOLATES * rateSliceCap(limit));
  });

  it("over sliding windows, each isolate adds at most its slice cap to the limit", async () => {
    // The object's window with a clock the test moves (the real one is the same SlidingWindow).
    let now = 0;
    const windows = new Map<string, SlidingWindow>();
    const limiter = async (k: string, l: number, want: number) => {
      if (!windows.has(k)) windows.set(k, new SlidingWindow());
      return windows.get(k)!.take(l, 60_000, now, want);
    };
    const limit = 60;
    const isolates = Array.from({ length: ISOLATES }, () => new RateLeases(limiter));
    const bg = backgrounds();
    const admittedAt: number[] = [];
    for (; now < 600_000; now += 250) {
      for (const iso of isolates) {
        if (Math.random() < 0.5 && (await iso.take("ip:x", limit, bg.run)).ok) admittedAt.push(now);
      }
      await bg.settle();
    }
    let worst = 0;
    for (let i = 0, j = 0; i < admittedAt.length; i++) {
      while (admittedAt[i] - admittedAt[j] >= 60_000) j++;
      worst = Math.max(worst, i - j + 1);
    }
    expect(worst).toBeGreaterThan(limit);
    expect(worst).toBeLessThanOrEqual(limit + ISOLATES * rateSliceCap(limit));
  });

  it("a key seen once costs the window one hit: small limits stay exact", async () => {
    const key = newKey("ip");
    const bg = backgrounds();
    const iso = new RateLeases((k, l, want) => rateLimiter(env, k).lease(l, want));
    const results = [];
    for (let i = 0; i < 4; i++) results.push((await iso.take(key, 3, bg.run)).ok);
    await bg.settle();
    expect(results).toEqual([true, true, true, false]);
  });
});

describe("the chat route's calls to Durable Objects", () => {
  it("a busy site's turns call neither its ledger nor the client IP's limiter per turn", async () => {
    // Its provider is a profile, answered by the stub below.
    const providers = [{ id: "test", baseUrl: "https://provider.test/v1" }];
    const siteKey = await putSite({ rateLimits: { sessionPerMinute: 1000, ipPerMinute: 1000 }, providers });
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => sseResponse([delta("Hi", "stop"), usage(700, 20)]));
    const sessions = await Promise.all(Array.from({ length: 4 }, () => openSession("derm-consult", {}, { siteKey })));
    const ledger = vi.spyOn(env.SITE_LEDGER, "idFromName");
    const limiter = vi.spyOn(env.RATE_LIMITER, "idFromName");
    const rooms = vi.spyOn(env.SESSION_ROOM, "idFromName");
    const turns = 40;
    for (let i = 0; i < turns; i++) {
      const { res, done } = await call("/v1/chat/completions", {
        method: "POST",
        json: { stream: true, messages: [{ role: "user", content: `turn ${i}` }] },
        headers: auth(sessions[i % 4].token),
      });
      expect(res.status).toBe(200);
      await res.text();
      await done();
    }
    // A slice of a 2 000 000-token day holds dozens of turns; the IP's slice grows to 100 hits.
    expect(ledger.mock.calls.length).toBeLessThanOrEqual(2);
    expect(limiter.mock.calls.length).toBeLessThanOrEqual(8);
    // Only the session's own object is reached every turn.
    expect(rooms.mock.calls.length).toBeGreaterThanOrEqual(turns);
    expect(rooms.mock.calls.length).toBeLessThanOrEqual(turns * 2);
  }, 30_000);
});
