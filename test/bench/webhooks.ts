import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { performance } from "node:perf_hooks";
import { Webhook } from "standardwebhooks";
import { demoSite } from "../../worker/demo/index.ts";
import { postJson, streamChat } from "./sse-client.ts";
import { percentile as sortedPercentile } from "../helpers/stats.ts";
import { startBenchWorker, type BenchWorker } from "./worker-runtime.ts";

/**
 * Webhook delivery under a failing receiver (npm run bench:webhooks). The real worker bundle in workerd
 * (demo mode, so receivers on 127.0.0.1 are allowed; the demo model answers at once), one site with an
 * endpoint for conversation.started and message.created, and a receiver in this process that fails
 * WEBHOOK_FAIL_PCT % of attempts, in equal parts 500, no answer (the worker's 1 s deadline) and 429 with
 * Retry-After. M conversations of T turns run with the receiver healthy, then failing, ROUNDS times.
 *
 * Prints per phase: events, delivered, retried, failed, attempts per event, delivery latency (event to
 * its first 2xx) p50/p95, order violations per conversation, bad signatures; and the visitor's turn
 * (request to the reply's end) p50/p95 with the receiver healthy and failing. Exits 1 when an event
 * arrives before an earlier one of its conversation, a signature does not verify, an event is lost, or
 * the failing run's turn p50 exceeds the healthy one's by more than TURN_RATIO (+ TURN_SLACK_MS).
 *
 * Env: WEBHOOK_CONVERSATIONS (20), WEBHOOK_TURNS (3), WEBHOOK_ROUNDS (3), WEBHOOK_FAIL_PCT (30),
 * WEBHOOK_SEED (7).
 */
const num = (name: string, dflt: number) => (process.env[name] ? Number(process.env[name]) : dflt);
const CFG = {
  conversations: num("WEBHOOK_CONVERSATIONS", 20),
  turns: num("WEBHOOK_TURNS", 3),
  failPct: num("WEBHOOK_FAIL_PCT", 30),
  seed: num("WEBHOOK_SEED", 7),
  rounds: num("WEBHOOK_ROUNDS", 3),
  /** The 24 h schedule shrunk to about 17 s (5 s, 5 min, 30 min … become 1 ms, 60 ms, 360 ms …). */
  retryScale: 0.0002,
  timeoutMs: 1000,
};
const TURN_RATIO = 1.5;
const TURN_SLACK_MS = 20;
const SITE_KEY = "bench-webhooks-site";
const ADMIN_KEY = "bench-webhooks-admin-key-0123456789";
const AGENT_ID = "derm-consult";

const t0 = performance.now();
const log = (msg: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s] ${msg}`);

/** A small seeded generator (mulberry32): the same failures on every run of a seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Seen {
  conversation: string;
  /** Where the event stands in its conversation: started 0, turn t's question 1 + 2t, its reply 2 + 2t. */
  index: number;
  eventAt: number;
  attempts: number;
  deliveredAt: number | null;
}

/** The site owner's receiver: verifies each request, fails some, records attempts and first deliveries. */
function receiver(secret: () => string) {
  const events = new Map<string, Seen>();
  const order = new Map<string, number[]>();
  const hung: IncomingMessage[] = [];
  let failPct = 0;
  let random = rng(CFG.seed);
  let badSignatures = 0;
  const server: Server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    let payload: { type: string; timestamp: string; data: { conversation: string; message?: { id: string } } };
    try {
      payload = new Webhook(secret()).verify(body, headers) as typeof payload;
    } catch {
      badSignatures++;
      res.writeHead(400).end();
      return;
    }
    const id = headers["webhook-id"];
    const seen = events.get(id) ?? {
      conversation: payload.data.conversation,
      index: eventIndex(payload),
      eventAt: Date.parse(payload.timestamp),
      attempts: 0,
      deliveredAt: null,
    };
    events.set(id, seen);
    seen.attempts++;
    const roll = random();
    if (roll * 100 < failPct) {
      const kind = Math.floor((roll * 100 * 3) / failPct);
      if (kind === 0) return void res.writeHead(500).end("{}");
      if (kind === 1) return void hung.push(req);
      return void res.writeHead(429, { "retry-after": "1" }).end("{}");
    }
    if (seen.deliveredAt === null) {
      seen.deliveredAt = Date.now();
      order.set(seen.conversation, [...(order.get(seen.conversation) ?? []), seen.index]);
    }
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  return {
    server,
    events,
    order,
    badSignatures: () => badSignatures,
    failing(pct: number) {
      failPct = pct;
      random = rng(CFG.seed);
    },
    close() {
      for (const r of hung) r.socket.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
}

function eventIndex(p: { type: string; data: { message?: { id: string } } }): number {
  if (p.type === "conversation.started") return 0;
  const m = /^([ur])-[hfw]\d+-(\d+)$/.exec(p.data.message?.id ?? "");
  return m ? (m[1] === "u" ? 1 : 2) + 2 * Number(m[2]) : -1;
}

/** M visitors at once, T turns each; the time of every turn from request to the reply's end. */
async function conversations(worker: BenchWorker, origin: string, phase: string): Promise<number[]> {
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: CFG.conversations }, async (_, s) => {
      const { status, json } = await postJson<{ token: string }>(
        `${worker.url}/v1/sessions`,
        { origin },
        { siteKey: SITE_KEY, agentId: AGENT_ID },
      );
      if (status !== 201) throw new Error(`POST /v1/sessions answered ${status}: ${JSON.stringify(json)}`);
      const history: Array<Record<string, unknown>> = [];
      for (let t = 0; t < CFG.turns; t++) {
        history.push({ id: `u-${phase}${s}-${t}`, role: "user", content: `What helps with dry skin? (${t})` });
        const r = await streamChat(
          `${worker.url}/v1/chat/completions`,
          { authorization: `Bearer ${json.token}`, origin },
          { stream: true, messages: history, parley: { replyId: `r-${phase}${s}-${t}` } },
          60_000,
        );
        if (r.status !== 200 || !r.sawDone) throw new Error(`turn ${s}/${t}: ${r.status} ${r.errorBody}`);
        times.push(r.total);
        history.push({ id: `r-${phase}${s}-${t}`, role: "assistant", content: r.content });
      }
    }),
  );
  return times;
}

const randomIp = () => `2001:db8::${Math.floor(Math.random() * 0xffff).toString(16)}`;

async function admin<T>(worker: BenchWorker, method: string, path: string, body?: unknown): Promise<T> {
  const sep = path.includes("?") ? "&" : "?";
  const res = await fetch(`${worker.url}${path}${sep}site=${SITE_KEY}`, {
    method,
    // The admin limit is per address (60 a minute): the bench's polls each come from one of their own.
    headers: { "x-parley-admin-key": ADMIN_KEY, "content-type": "application/json", "cf-connecting-ip": randomIp() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
}

/** Until the outbox has nothing pending (every event delivered or failed), checked every 200 ms. */
async function settled(worker: BenchWorker, deadlineMs: number) {
  const until = performance.now() + deadlineMs;
  for (;;) {
    const { deliveries } = await admin<{ deliveries: unknown[] }>(
      worker,
      "GET",
      "/v1/admin/webhook-deliveries?status=pending&limit=1",
    );
    if (!deliveries.length) return;
    if (performance.now() > until) throw new Error(`deliveries still pending after ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const percentile = (values: readonly number[], p: number) =>
  sortedPercentile(
    [...values].sort((a, b) => a - b),
    p,
  );
const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "-");

async function main() {
  let worker: BenchWorker | undefined;
  let secret = "";
  const hooks = receiver(() => secret);
  await new Promise<void>((r) => hooks.server.listen(0, "127.0.0.1", r));
  const hookUrl = `http://127.0.0.1:${(hooks.server.address() as { port: number }).port}/hooks`;
  let failed = false;
  try {
    worker = await startBenchWorker("workerd", {
      DEMO_MODE: "1",
      DEMO_CHUNK_MS: "0",
      WEBHOOK_RETRY_SCALE: String(CFG.retryScale),
      WEBHOOK_TIMEOUT_MS: String(CFG.timeoutMs),
    });
    if (!worker.putConfig) throw new Error("the bench worker cannot write KV config");
    const origin = `http://127.0.0.1:${worker.port}`;
    await worker.putConfig(`site:${SITE_KEY}`, {
      ...demoSite,
      siteKey: SITE_KEY,
      adminKeySha256: createHash("sha256").update(ADMIN_KEY).digest("hex"),
      rateLimits: { sessionPerMinute: 10_000, ipPerMinute: 1_000_000 },
      budgets: { sitePerDay: 100_000_000, perSession: 1e9 },
    });
    const { endpoint } = await admin<{ endpoint: { secret: string } }>(worker, "POST", "/v1/admin/webhooks", {
      url: hookUrl,
      events: ["conversation.started", "message.created"],
    });
    secret = endpoint.secret;
    log(`${worker.label}; ${CFG.conversations} conversations x ${CFG.turns} turns a phase, ${CFG.rounds} rounds`);
    // A first round, not counted: the isolate, its objects and the demo model warm, as in the phases after it.
    await conversations(worker, origin, "w");
    await settled(worker, 120_000);

    // Healthy and failing phases alternate, ROUNDS times: the machine's drift falls on both alike.
    type Totals = { events: Seen[]; times: number[]; violations: number };
    const totals: Record<"h" | "f", Totals> = {
      h: { events: [], times: [], violations: 0 },
      f: { events: [], times: [], violations: 0 },
    };
    for (let round = 0; round < CFG.rounds; round++)
      for (const [phase, pct] of [
        ["h", 0],
        ["f", CFG.failPct],
      ] as const) {
        hooks.events.clear();
        hooks.order.clear();
        hooks.failing(pct);
        const started = performance.now();
        const times = await conversations(worker, origin, phase);
        const turnsMs = performance.now() - started;
        await settled(worker, 120_000);
        const events = [...hooks.events.values()];
        const violations = [...hooks.order.values()].reduce(
          (n, seq) => n + seq.filter((x, i) => i > 0 && x < seq[i - 1]).length,
          0,
        );
        // An event whose place in its conversation is unknown could hide a violation: the check needs them all.
        const unplaced = events.filter((e) => e.index < 0).length;
        if (unplaced) ((failed = true), console.error(`FAIL: ${unplaced} events not placed in their conversation`));
        const t = totals[phase];
        t.events.push(...events);
        t.times.push(...times);
        t.violations += violations;
        const delivered = events.filter((e) => e.deliveredAt !== null).length;
        const expected = CFG.conversations * (1 + 2 * CFG.turns);
        log(
          `round ${round + 1}, ${pct ? "failing" : "healthy"}: turn p50 ${f0(percentile(times, 50))} ms ` +
            `(${f0(turnsMs)} ms in all), ${delivered}/${expected} delivered once the outbox settled`,
        );
        if (violations) ((failed = true), console.error(`FAIL: ${violations} events arrived before an earlier one`));
        if (events.length !== expected || delivered !== expected)
          ((failed = true), console.error(`FAIL: ${expected} events made, ${delivered} delivered`));
      }
    const rows = (["h", "f"] as const).map((phase) => {
      const { events, times, violations } = totals[phase];
      const delivered = events.filter((e) => e.deliveredAt !== null);
      const latency = delivered.map((e) => e.deliveredAt! - e.eventAt);
      const attempts = events.reduce((n, e) => n + e.attempts, 0);
      return [
        phase === "f" ? `failing ${CFG.failPct} %` : "healthy",
        String(events.length),
        String(delivered.length),
        String(events.filter((e) => e.attempts > 1).length),
        String(events.length - delivered.length),
        (attempts / Math.max(1, events.length)).toFixed(2),
        String(Math.max(0, ...events.map((e) => e.attempts))),
        `${f0(percentile(latency, 50))} / ${f0(percentile(latency, 95))}`,
        String(violations),
        `${f0(percentile(times, 50))} / ${f0(percentile(times, 95))}`,
      ];
    });
    const turnP50 = [percentile(totals.h.times, 50), percentile(totals.f.times, 50)];
    if (hooks.badSignatures()) ((failed = true), console.error(`FAIL: ${hooks.badSignatures()} bad signatures`));
    const head = [
      "receiver",
      "events",
      "delivered",
      "retried",
      "failed",
      "attempts/event",
      "max",
      "delivery ms p50 / p95",
      "order violations",
      "turn ms p50 / p95",
    ];
    console.log(`\n| ${head.join(" | ")} |\n|${head.map(() => " --- |").join("")}`);
    for (const r of rows) console.log(`| ${r.join(" | ")} |`);
    const ratio = turnP50[1] / turnP50[0];
    console.log(`\nturn p50, failing / healthy: ${ratio.toFixed(2)} (budget ${TURN_RATIO} + ${TURN_SLACK_MS} ms)`);
    if (turnP50[1] > turnP50[0] * TURN_RATIO + TURN_SLACK_MS)
      ((failed = true), console.error("FAIL: a failing receiver slowed the visitor's turns"));
  } finally {
    hooks.close();
    await worker?.stop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
