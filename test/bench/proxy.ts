import { performance } from "node:perf_hooks";
import type { SessionResponse } from "../../shared/api.ts";
import { GENERIC_REPLY, startFakeUpstream, type FakeUpstream, type RecordedRequest } from "../helpers/fake-upstream.ts";
import { fmt, median, summarize, type Summary } from "../helpers/stats.ts";
import { startWranglerDev, type WranglerDev } from "../helpers/wrangler-dev.ts";
import { benchAgent, postJson, streamChat, type StreamResult } from "./sse-client.ts";

/**
 * Proxy overhead: the same streamed completion asked of the fake upstream directly and through
 * the worker (wrangler dev), interleaved in one run so machine drift hits both sides alike.
 * Overhead = proxied - direct, at p50 and at p99, for TTFB (first content chunk) and total time.
 * Sizes can be lowered with env vars for a quick run: BENCH_SEQ, BENCH_ROUNDS, BENCH_CONC, BENCH_WARM.
 */
const num = (name: string, dflt: number) => (process.env[name] ? Number(process.env[name]) : dflt);
const CFG = {
  apiKey: "bench-key",
  firstTokenMs: 20,
  chunkMs: 5,
  warm: num("BENCH_WARM", 20),
  seq: num("BENCH_SEQ", 200),
  conc: num("BENCH_CONC", 50),
  rounds: num("BENCH_ROUNDS", 10),
  /** The stream-through check uses slower chunks so the gaps stand out of the noise. */
  probeChunkMs: 20,
  probes: 5,
  /** Whole-bench guard (the brief: about 3 minutes); phases stop early past it, and say so. */
  deadlineMs: num("BENCH_DEADLINE_MS", 165_000),
};
const BUDGET = { p50: 1, p99: 5 };
const SITE_KEY = "demo-site-key-0001";
const AGENT_ID = "derm-consult";
const USER_TEXT = "Tell me briefly how sunscreen works.";

const t0 = performance.now();
const overDeadline = () => performance.now() - t0 > CFG.deadlineMs;
const log = (msg: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s] ${msg}`);

interface Side { ttfb: number[]; total: number[]; errors: number; firstError?: string }
const newSide = (): Side => ({ ttfb: [], total: [], errors: 0 });

interface Ctx {
  upstream: FakeUpstream;
  dev: WranglerDev;
  origin: string;
  tokens: string[];
  directBody: Record<string, unknown>;
}

function record(side: Side, r: StreamResult | Error): void {
  if (r instanceof Error) {
    side.errors++;
    side.firstError ??= r.message;
  } else if (r.status !== 200 || Number.isNaN(r.ttfb) || r.content !== GENERIC_REPLY) {
    side.errors++;
    side.firstError ??= `status ${r.status}, ${r.contentChunks.length} content chunks, done=${r.sawDone}${r.inbandError ? `, in-band error ${r.inbandError}` : ""}: ${r.errorBody ?? r.content.slice(0, 120)}`;
  } else {
    side.ttfb.push(r.ttfb);
    side.total.push(r.total);
  }
}

const settle = (p: Promise<StreamResult>): Promise<StreamResult | Error> => p.catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));

function direct(ctx: Ctx): Promise<StreamResult | Error> {
  return settle(streamChat(`${ctx.upstream.url}/chat/completions`, { authorization: `Bearer ${CFG.apiKey}` }, ctx.directBody));
}

function proxied(ctx: Ctx, session: number, text = USER_TEXT): Promise<StreamResult | Error> {
  return settle(streamChat(
    `${ctx.dev.url}/v1/chat/completions`,
    { authorization: `Bearer ${ctx.tokens[session % ctx.tokens.length]}`, origin: ctx.origin },
    { stream: true, messages: [{ role: "user", content: text }] },
  ));
}

async function openSessions(dev: WranglerDev, origin: string, n: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < n; i += 10) {
    const batch = await Promise.all(Array.from({ length: Math.min(10, n - i) }, () =>
      postJson<SessionResponse>(`${dev.url}/v1/sessions`, { origin }, { siteKey: SITE_KEY, agentId: AGENT_ID })));
    for (const { status, json } of batch) {
      if (status !== 200 && status !== 201) throw new Error(`POST /v1/sessions answered ${status}: ${JSON.stringify(json).slice(0, 300)}`);
      if (!json.token) throw new Error(`POST /v1/sessions answered without a token: ${JSON.stringify(json).slice(0, 300)}`);
      tokens.push(json.token);
    }
  }
  return tokens;
}

/** One proxied request; checks the worker added the key and returns the body it sent upstream. */
async function probe(ctx: Omit<Ctx, "directBody">): Promise<Record<string, unknown>> {
  const before = ctx.upstream.requests.length;
  const r = await proxied({ ...ctx, directBody: {} }, 0);
  if (r instanceof Error) throw new Error(`first proxied request failed: ${r.message}`);
  const up = ctx.upstream.requests[before] as RecordedRequest | undefined;
  if (r.status !== 200) throw new Error(`first proxied request answered ${r.status}: ${r.errorBody}${up ? ` (upstream answered ${up.status})` : " (upstream never called)"}`);
  if (!up?.body) throw new Error("the worker answered 200 but never called the fake upstream (demo model in use? LLM_BASE_URL not read?)");
  if (up.headers.authorization !== `Bearer ${CFG.apiKey}`) throw new Error(`the worker sent authorization ${JSON.stringify(up.headers.authorization)}`);
  if (r.content !== GENERIC_REPLY) throw new Error(`proxied content differs from the upstream's reply: ${JSON.stringify(r.content.slice(0, 200))}`);
  log(`probe ok: model ${up.body.model}, ${up.body.messages.length} messages upstream, key added, content identical, [DONE] ${r.sawDone}`);
  // The direct baseline sends exactly what the worker sends upstream (system prompt, model, caps).
  return up.body;
}

async function sequential(ctx: Ctx, n: number, sides: { d: Side; p: Side }, label: string): Promise<boolean> {
  for (let i = 0; i < n; i++) {
    if (overDeadline()) { log(`${label}: deadline reached after ${i} of ${n}`); return false; }
    // Alternate which side goes first, so neither always follows the other.
    if (i % 2 === 0) { record(sides.d, await direct(ctx)); record(sides.p, await proxied(ctx, i)); }
    else { record(sides.p, await proxied(ctx, i)); record(sides.d, await direct(ctx)); }
  }
  return true;
}

async function concurrent(ctx: Ctx, sides: { d: Side; p: Side }): Promise<boolean> {
  const burst = async (fn: (i: number) => Promise<StreamResult | Error>, side: Side) => {
    for (const r of await Promise.all(Array.from({ length: CFG.conc }, (_, i) => fn(i)))) record(side, r);
  };
  for (let round = 0; round < CFG.rounds; round++) {
    if (overDeadline()) { log(`concurrent: deadline reached after ${round} of ${CFG.rounds} rounds`); return false; }
    // One session per concurrent stream, so a per-session rate limit cannot skew the figures.
    const prox = () => burst((i) => proxied(ctx, i), sides.p);
    const dir = () => burst(() => direct(ctx), sides.d);
    if (round % 2 === 0) { await dir(); await prox(); } else { await prox(); await dir(); }
  }
  return true;
}

interface StreamProof { chunks: number; medianGap: number; medianLag: number; p99Lag: number; beforeEnd: number; directBeforeEnd: number }

/**
 * Streaming-through: with slower chunks, each proxied chunk's arrival is compared with the fake
 * upstream's send time of the same chunk. A buffering proxy would deliver everything after the
 * upstream's last write (fraction before end = 0); a streaming one delivers nearly all before it.
 */
async function streamProof(ctx: Ctx): Promise<StreamProof> {
  ctx.upstream.configure({ chunkMs: CFG.probeChunkMs });
  const gaps: number[] = [];
  const lags: number[] = [];
  let before = 0, total = 0, dBefore = 0, dTotal = 0;
  const upstreamContent = (req: RecordedRequest) =>
    req.chunks.filter((c) => c.data !== "data: [DONE]\n\n" && (JSON.parse(c.data.slice(6))?.choices?.[0]?.delta?.content ?? "") !== "");
  for (let i = 0; i < CFG.probes; i++) {
    for (const side of ["proxied", "direct"] as const) {
      const idx = ctx.upstream.requests.length;
      const r = side === "proxied" ? await proxied(ctx, i) : await direct(ctx);
      if (r instanceof Error || r.status !== 200) throw new Error(`stream-through probe failed: ${r instanceof Error ? r.message : r.errorBody}`);
      const up = ctx.upstream.requests[idx];
      const sent = upstreamContent(up);
      const end = up.chunks.at(-1)!.at;
      const n = Math.min(sent.length, r.contentChunks.length);
      for (let k = 0; k < n; k++) {
        const early = r.contentChunks[k].at < end ? 1 : 0;
        if (side === "direct") { dBefore += early; dTotal++; continue; }
        before += early; total++;
        lags.push(r.contentChunks[k].at - sent[k].at);
        if (k > 0) gaps.push(r.contentChunks[k].at - r.contentChunks[k - 1].at);
      }
    }
  }
  ctx.upstream.configure({ chunkMs: CFG.chunkMs });
  const lag = summarize(lags);
  return { chunks: total, medianGap: median(gaps), medianLag: lag.p50, p99Lag: lag.p99, beforeEnd: before / (total || 1), directBeforeEnd: dBefore / (dTotal || 1) };
}

function row(label: string, s: Summary): string {
  return `${label.padEnd(28)} ${String(s.n).padStart(5)} ${fmt(s.p50).padStart(8)} ${fmt(s.p90).padStart(8)} ${fmt(s.p99).padStart(8)} ${fmt(s.max).padStart(8)}`;
}

interface Overhead { ttfb50: number; ttfb99: number; total50: number; total99: number; pairedTtfb50?: number }

function report(label: string, sides: { d: Side; p: Side }, paired: boolean): Overhead {
  const dT = summarize(sides.d.ttfb), pT = summarize(sides.p.ttfb), dA = summarize(sides.d.total), pA = summarize(sides.p.total);
  console.log(`\n${label}   (ms)                 n      p50      p90      p99      max`);
  console.log(row("  TTFB direct", dT));
  console.log(row("  TTFB proxied", pT));
  console.log(row("  total direct", dA));
  console.log(row("  total proxied", pA));
  for (const [name, s] of [["direct", sides.d], ["proxied", sides.p]] as const) {
    if (s.errors) console.log(`  ${name} errors: ${s.errors} (first: ${s.firstError})`);
  }
  const o: Overhead = { ttfb50: pT.p50 - dT.p50, ttfb99: pT.p99 - dT.p99, total50: pA.p50 - dA.p50, total99: pA.p99 - dA.p99 };
  if (paired && sides.d.ttfb.length === sides.p.ttfb.length) {
    o.pairedTtfb50 = median(sides.p.ttfb.map((v, i) => v - sides.d.ttfb[i]));
  }
  console.log(`  overhead TTFB p50 ${fmt(o.ttfb50)} p99 ${fmt(o.ttfb99)} | total p50 ${fmt(o.total50)} p99 ${fmt(o.total99)}` +
    (o.pairedTtfb50 !== undefined ? ` | median of paired TTFB differences ${fmt(o.pairedTtfb50)}` : ""));
  return o;
}

async function main(): Promise<number> {
  let upstream: FakeUpstream | undefined;
  let dev: WranglerDev | undefined;
  try {
    upstream = await startFakeUpstream({ apiKey: CFG.apiKey, firstTokenMs: CFG.firstTokenMs, chunkMs: CFG.chunkMs });
    log(`fake upstream on ${upstream.url} (first token ${CFG.firstTokenMs} ms, ${CFG.chunkMs} ms between chunks)`);
    dev = await startWranglerDev({ vars: { LLM_BASE_URL: upstream.url, LLM_API_KEY: CFG.apiKey } });
    const origin = `http://127.0.0.1:${dev.port}`;
    log(`wrangler dev on ${dev.url}`);
    const tokens = await openSessions(dev, origin, CFG.conc);
    log(`${tokens.length} sessions opened`);
    const directBody = await probe({ upstream, dev, origin, tokens });
    const ctx: Ctx = { upstream, dev, origin, tokens, directBody };

    await sequential(ctx, CFG.warm, { d: newSide(), p: newSide() }, "warm-up");
    log(`warm-up done (${CFG.warm} each side)`);
    const seq = { d: newSide(), p: newSide() };
    const seqComplete = await sequential(ctx, CFG.seq, seq, "sequential");
    log(`sequential done (${seq.p.total.length} proxied, ${seq.d.total.length} direct)`);
    const conc = { d: newSide(), p: newSide() };
    const concComplete = await concurrent(ctx, conc);
    log(`concurrent done (${conc.p.total.length} proxied, ${conc.d.total.length} direct)`);
    const proof = await streamProof(ctx);
    log("stream-through check done");

    const so = report(`sequential, ${CFG.seq} each side, interleaved${seqComplete ? "" : " (cut short by the deadline)"}`, seq, true);
    const co = report(`${CFG.conc} concurrent streams x ${CFG.rounds} rounds each side${concComplete ? "" : " (cut short by the deadline)"}`, conc, false);
    console.log(`\nstream-through (upstream ${CFG.probeChunkMs} ms between chunks, ${CFG.probes} proxied streams, ${proof.chunks} content chunks):`);
    console.log(`  median gap between arrivals ${fmt(proof.medianGap)} ms | upstream send -> client arrival p50 ${fmt(proof.medianLag)} ms p99 ${fmt(proof.p99Lag)} ms`);
    console.log(`  chunks that arrived before the upstream finished sending: proxied ${fmt(proof.beforeEnd * 100, 1)}%, direct ${fmt(proof.directBeforeEnd * 100, 1)}%`);

    const cutUpstream = upstream.requests.filter((r) => r.aborted).length;
    if (cutUpstream) console.log(`  upstream saw ${cutUpstream} of ${upstream.requests.length} requests go away before the reply was complete`);

    const broken: string[] = [];
    const check = (name: string, o: Overhead) => {
      if (!(o.ttfb50 <= BUDGET.p50)) broken.push(`${name} TTFB p50 +${fmt(o.ttfb50)} > ${BUDGET.p50}`);
      if (!(o.ttfb99 <= BUDGET.p99)) broken.push(`${name} TTFB p99 +${fmt(o.ttfb99)} > ${BUDGET.p99}`);
      if (!(o.total50 <= BUDGET.p50)) broken.push(`${name} total p50 +${fmt(o.total50)} > ${BUDGET.p50}`);
      if (!(o.total99 <= BUDGET.p99)) broken.push(`${name} total p99 +${fmt(o.total99)} > ${BUDGET.p99}`);
    };
    check("seq", so);
    check("conc", co);
    const errors = seq.p.errors + seq.d.errors + conc.p.errors + conc.d.errors;
    if (errors) broken.push(`${errors} failed requests`);
    if (!seqComplete || !concComplete) broken.push("cut short by the deadline");
    // Streaming through: nearly every chunk (all but the last few) arrives before the upstream's last write.
    if (!(proof.beforeEnd >= 0.8)) broken.push(`stream-through ${fmt(proof.beforeEnd * 100, 1)}% < 80%`);
    if (!(Math.abs(proof.medianGap - CFG.probeChunkMs) <= CFG.probeChunkMs / 2)) broken.push(`median arrival gap ${fmt(proof.medianGap)} ms, upstream sent every ${CFG.probeChunkMs} ms`);

    const sign = (n: number) => (n >= 0 ? "+" : "") + fmt(n);
    console.log(`\nproxy overhead (proxied - direct, ms; wrangler dev on this machine; budget p50 <= ${BUDGET.p50}, p99 <= ${BUDGET.p99})`);
    console.log(
      `sequential: TTFB p50 ${sign(so.ttfb50)} p99 ${sign(so.ttfb99)}, total p50 ${sign(so.total50)} p99 ${sign(so.total99)} | ` +
        `${CFG.conc} concurrent: TTFB p50 ${sign(co.ttfb50)} p99 ${sign(co.ttfb99)}, total p50 ${sign(co.total50)} p99 ${sign(co.total99)} | ` +
        `stream-through ${fmt(proof.beforeEnd * 100, 0)}% chunks before upstream end, gap ${fmt(proof.medianGap, 1)} ms (sent every ${CFG.probeChunkMs}) | ` +
        `${((performance.now() - t0) / 1000).toFixed(0)} s | ${broken.length ? `FAIL: ${broken.join("; ")}` : "ok"}`,
    );
    return broken.length ? 1 : 0;
  } catch (err) {
    console.error(`bench:proxy failed: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  } finally {
    benchAgent.destroy();
    await dev?.stop().catch(() => undefined);
    await upstream?.close().catch(() => undefined);
  }
}

process.exitCode = await main();
