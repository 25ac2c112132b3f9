import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fetch as upgradeFetch } from "miniflare";
import type { SessionResponse } from "../../shared/api.ts";
import { demoSite, PRESET_AGENTS } from "../../worker/demo/index.ts";
import { startFakeUpstream } from "../helpers/fake-upstream.ts";
import { fmt } from "../helpers/stats.ts";
import { benchStack } from "./bench-stack.ts";
import { postJson, streamChat } from "./sse-client.ts";
import { startBenchWorker } from "./worker-runtime.ts";

/**
 * Where the chat route's time goes, in figures that do not depend on the machine's load: the
 * workerd process's CPU per streamed turn (sequential, so nothing queues), and a V8 CPU profile of
 * the worker (Chrome DevTools protocol on workerd's inspector) summed by function and by source
 * file. Wall-clock figures are bench:proxy's job. Env: PROFILE_TURNS (400), PROFILE_TOP (25),
 * PROFILE_PORT (inspector port, 9331), PROFILE_CPU_ONLY=1 (the CPU per turn alone, no profile),
 * PROFILE_OUT=<file.cpuprofile> (the raw profile too, for DevTools' Performance panel or a call tree).
 * Under a loaded machine the sampled profile is smeared (a thread waiting for a core is sampled in
 * whatever it was running): compare CPU per turn, interleaved runs, before and after.
 */
const num = (name: string, dflt: number) => (process.env[name] ? Number(process.env[name]) : dflt);
const TURNS = num("PROFILE_TURNS", 400);
const TOP = num("PROFILE_TOP", 25);
const PORT = num("PROFILE_PORT", 9331);
const SITE_KEY = "demo-site-key-0001";
const AGENT_ID = "derm-consult";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A Chrome DevTools protocol session (Miniflare's fetch makes the WebSocket: it has types, ws does not here). */
async function cdp(url: string) {
  const res = await upgradeFetch(url.replace(/^ws:/, "http:"), { headers: { upgrade: "websocket" } });
  const ws = res.webSocket;
  if (!ws) throw new Error(`no WebSocket from ${url}: ${res.status}`);
  ws.accept();
  let next = 1;
  const waiting = new Map<number, (v: unknown) => void>();
  ws.addEventListener("message", (e) => {
    const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result);
  });
  return {
    send<T>(method: string, params: object = {}): Promise<T> {
      const id = next++;
      ws.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((res) => waiting.set(id, res as (v: unknown) => void));
    },
    close: () => ws.close(),
  };
}

/** Self time per function and per file (µs), from the sampled profile. */
function summarizeProfile(p: Profile) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const f = byId.get(id)!.callFrame;
    return `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\//, "") || "(native)"}:${f.lineNumber + 1}`;
  };
  // Inclusive: a sample counts once for every function on its stack (synchronous stretches only:
  // after an await, V8's stack starts again at the microtask that resumed it).
  const inclusive = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) seen.add(label(at));
    for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
  const fns = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    const file = f.url.replace(/^.*\//, "") || "(native)";
    const name = `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`;
    fns.set(name, (fns.get(name) ?? 0) + us);
    files.set(file, (files.get(file) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { fns: sorted(fns), files: sorted(files), inclusive: sorted(inclusive) };
}

async function main(): Promise<number> {
  process.env.BENCH_INSPECTOR_PORT = String(PORT);
  const stack = benchStack();
  try {
    const upstream = (stack.upstream = await startFakeUpstream({ apiKey: "k", firstTokenMs: 2, chunkMs: 0 }));
    const worker = (stack.worker = await startBenchWorker("workerd", { LLM_BASE_URL: upstream.url, LLM_API_KEY: "k" }));
    await worker.putConfig?.(`site:${SITE_KEY}`, {
      ...demoSite,
      rateLimits: { sessionPerMinute: 100_000, ipPerMinute: 1_000_000 },
    });
    await worker.putConfig?.(`agent:${AGENT_ID}`, PRESET_AGENTS[AGENT_ID]);
    const origin = `http://127.0.0.1:${worker.port}`;
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { json } = await postJson<SessionResponse>(
        `${worker.url}/v1/sessions`,
        { origin },
        { siteKey: SITE_KEY, agentId: AGENT_ID },
      );
      tokens.push(json.token);
    }
    const turn = async (i: number) => {
      const r = await streamChat(
        `${worker.url}/v1/chat/completions`,
        { authorization: `Bearer ${tokens[i % tokens.length]}`, origin },
        { stream: true, messages: [{ role: "user", content: `How does sunscreen work? ${i}` }] },
      );
      if (r.status !== 200) throw new Error(`turn ${i}: ${r.status} ${r.errorBody}`);
    };
    for (let i = 0; i < 100; i++) await turn(i);

    // CPU per turn, without the profiler attached.
    const cpu0 = worker.cpuMs()!;
    const wall0 = performance.now();
    for (let i = 0; i < TURNS; i++) await turn(i);
    const cpuPerTurn = (worker.cpuMs()! - cpu0) / TURNS;
    const wallPerTurn = (performance.now() - wall0) / TURNS;
    if (process.env.PROFILE_CPU_ONLY) {
      console.log(
        `proxy-profile: workerd CPU ${fmt(cpuPerTurn, 3)} ms per turn, wall ${fmt(wallPerTurn, 2)} ms per turn`,
      );
      return 0;
    }

    const targets = (await (await fetch(`http://127.0.0.1:${PORT}/json/list`)).json()) as Array<{
      webSocketDebuggerUrl: string;
      title?: string;
      id?: string;
    }>;
    // Miniflare names the user's worker `core:user:<name>`; its Durable Objects run in the same isolate.
    const target = targets.find((t) => t.id?.startsWith("core:user:"));
    if (!target) throw new Error(`no core:user: target among ${targets.map((t) => t.id).join(", ")}`);
    const session = await cdp(target.webSocketDebuggerUrl);
    await session.send("Profiler.enable");
    await session.send("Profiler.setSamplingInterval", { interval: 50 });
    await session.send("Profiler.start");
    for (let i = 0; i < TURNS; i++) await turn(i);
    const { profile } = await session.send<{ profile: Profile }>("Profiler.stop");
    session.close();
    if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
    const { fns, files, inclusive } = summarizeProfile(profile);
    const total = fns.reduce((n, [, us]) => n + us, 0);
    const idle = fns.filter(([n]) => /^\((idle|program|garbage collector)\)/.test(n));
    const busy = total - idle.reduce((n, [, us]) => n + us, 0);
    console.log(`\nself time per turn in the worker's isolate (µs), ${TURNS} sequential turns, top ${TOP}:`);
    for (const [name, us] of fns.slice(0, TOP)) console.log(`  ${fmt(us / TURNS, 1).padStart(8)}  ${name}`);
    console.log(`\ninclusive time per turn (µs), top ${TOP}:`);
    for (const [name, us] of inclusive.slice(0, TOP)) console.log(`  ${fmt(us / TURNS, 1).padStart(8)}  ${name}`);
    console.log(`\nby file (µs per turn):`);
    for (const [name, us] of files.slice(0, 15)) console.log(`  ${fmt(us / TURNS, 1).padStart(8)}  ${name}`);
    console.log(
      `\nproxy-profile: workerd CPU ${fmt(cpuPerTurn, 3)} ms per turn (process, all threads), ` +
        `isolate JS busy ${fmt(busy / TURNS / 1000, 3)} ms per turn (profile, not idle/GC), ` +
        `wall ${fmt(wallPerTurn, 2)} ms per turn`,
    );
    return 0;
  } catch (err) {
    console.error(`proxy-profile failed: ${err instanceof Error ? err.stack : String(err)}`);
    return 2;
  } finally {
    await stack.stop();
  }
}

process.exitCode = await main();
