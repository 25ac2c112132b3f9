import { writeFileSync } from "node:fs";
import { fetch as upgradeFetch } from "miniflare";
import type { SessionResponse } from "../../shared/wire/api.ts";
import { demoSite, PRESET_AGENTS } from "../../worker/demo/index.ts";
import { startFakeUpstream } from "../helpers/fake-upstream.ts";
import { fmt } from "../helpers/stats.ts";
import type { BenchStack } from "./bench-stack.ts";
import { postJson } from "./sse-client.ts";
import { startBenchWorker } from "./worker-runtime.ts";

const SITE_KEY = "demo-site-key-0001";
const AGENT_ID = "derm-consult";

/**
 * The profiled bench worker: workerd with its inspector on `port`, a fake provider `chunkMs` between
 * pieces, the demo's site (limits out of the way) and dermatology agent; `sessions(n)` opens n.
 */
export async function profiledWorker(stack: BenchStack, port: number, chunkMs: number) {
  process.env.BENCH_INSPECTOR_PORT = String(port);
  const upstream = (stack.upstream = await startFakeUpstream({ apiKey: "k", firstTokenMs: 2, chunkMs }));
  const worker = (stack.worker = await startBenchWorker("workerd", { LLM_BASE_URL: upstream.url, LLM_API_KEY: "k" }));
  await worker.putConfig?.(`site:${SITE_KEY}`, {
    ...demoSite,
    rateLimits: { sessionPerMinute: 100_000, ipPerMinute: 1_000_000 },
  });
  await worker.putConfig?.(`agent:${AGENT_ID}`, PRESET_AGENTS[AGENT_ID]);
  const origin = `http://127.0.0.1:${worker.port}`;
  const sessions = async (n: number) => {
    const opened: SessionResponse[] = [];
    const ask = { siteKey: SITE_KEY, agentId: AGENT_ID };
    for (let i = 0; i < n; i++)
      opened.push((await postJson<SessionResponse>(`${worker.url}/v1/sessions`, { origin }, ask)).json);
    return opened;
  };
  return { worker, origin, sessions };
}

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A Chrome DevTools protocol session (Miniflare's fetch makes the WebSocket: it has types, ws does not here). */
export async function cdp(url: string) {
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
export function summarizeProfile(p: Profile) {
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

/**
 * Profiles the bench worker's isolate (workerd's inspector on `port`) while `run` plays `count`
 * requests, and prints self and inclusive time per request by function and by file; answers the
 * isolate's busy time per request (µs, not idle or GC). PROFILE_OUT saves the raw profile.
 */
export async function profileWorker(port: number, count: number, top: number, run: () => Promise<void>) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
    id?: string;
  }>;
  // Miniflare names the user's worker `core:user:<name>`; its Durable Objects run in the same isolate.
  const target = targets.find((t) => t.id?.startsWith("core:user:"));
  if (!target) throw new Error(`no core:user: target among ${targets.map((t) => t.id).join(", ")}`);
  const session = await cdp(target.webSocketDebuggerUrl);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 50 });
  await session.send("Profiler.start");
  await run();
  const { profile } = await session.send<{ profile: Profile }>("Profiler.stop");
  session.close();
  if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
  const { fns, files, inclusive } = summarizeProfile(profile);
  const total = fns.reduce((n, [, us]) => n + us, 0);
  const idle = fns.filter(([n]) => /^\((idle|program|garbage collector)\)/.test(n));
  const print = (title: string, rows: Array<[string, number]>) => {
    console.log(`\n${title}`);
    for (const [name, us] of rows) console.log(`  ${fmt(us / count, 1).padStart(8)}  ${name}`);
  };
  print(`self time per request in the worker's isolate (µs), ${count} sequential, top ${top}:`, fns.slice(0, top));
  print(`inclusive time per request (µs), top ${top}:`, inclusive.slice(0, top));
  print(`by file (µs per request):`, files.slice(0, 15));
  return (total - idle.reduce((n, [, us]) => n + us, 0)) / count;
}
