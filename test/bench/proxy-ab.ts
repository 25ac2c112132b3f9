import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import type { SessionResponse } from "../../shared/wire/api.ts";
import { demoSite, PRESET_AGENTS } from "../../worker/demo/index.ts";
import { GENERIC_REPLY, startFakeUpstream } from "../helpers/fake-upstream.ts";
import { OFFLINE_ENV } from "../helpers/wrangler-dev.ts";
import { fmt, summarize } from "../helpers/stats.ts";
import { benchAgent, postJson, streamChat, type StreamResult } from "./sse-client.ts";

/**
 * Two builds of the worker side by side, interleaved turn by turn in one run, so a busy machine
 * slows both alike: the workerd CPU per streamed turn and the TTFB of each, sequential and in
 * concurrent bursts, and their ratio. For measuring one change (a lever) against the tree before it,
 * where bench:proxy's absolute figures drift with the machine's load.
 *
 * AB_DIRS=<before>,<after> (source trees with wrangler.toml and node_modules; default: this tree twice),
 * AB_TURNS (300 sequential turns a side), AB_CONC (50) x AB_ROUNDS (6) concurrent, AB_CHUNK_MS (5),
 * AB_FIRST_MS (20): the fake upstream's timing (bench:proxy's).
 */
const num = (name: string, dflt: number) => (process.env[name] ? Number(process.env[name]) : dflt);
const TURNS = num("AB_TURNS", 300);
const CONC = num("AB_CONC", 50);
const ROUNDS = num("AB_ROUNDS", 6);
const SITE_KEY = "demo-site-key-0001";
const AGENT_ID = "derm-consult";
const SESSION_SECRET = "dev-secret-for-tests-0123456789abcdef";
const dirs = (process.env.AB_DIRS ?? ".,.").split(",").map((d) => resolve(d));

interface Side {
  dir: string;
  url: string;
  pid: number;
  mf: Miniflare;
  tmp: string;
  tokens: string[];
  /** Sequential turns: TTFB, and the request leg (client send -> upstream received: the work before the call). */
  seq: { ttfb: number[]; leg: number[]; cpu: number };
  conc: { ttfb: number[]; cpu: number };
}

function workerdChildren(): Set<number> {
  const pids = new Set<number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(readFileSync(`/proc/${entry}/stat`, "utf8")) ?? [];
      if (comm === "workerd" && Number(rest?.split(" ")[1]) === process.pid) pids.add(Number(entry));
    } catch {
      /* gone */
    }
  }
  return pids;
}

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /s, "")
    .split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function start(dir: string, llm: string): Promise<Side> {
  const tmp = mkdtempSync("/dev/shm/parley-ab-");
  const out = join(tmp, "out");
  mkdirSync(join(tmp, "assets"));
  mkdirSync(join(dir, "dist/public"), { recursive: true });
  await promisify(execFile)(
    "npx",
    ["wrangler", "deploy", "--dry-run", "-c", "wrangler.toml", "--assets", join(tmp, "assets"), "--outdir", out],
    { cwd: dir, env: { ...process.env, ...OFFLINE_ENV }, timeout: 60_000, maxBuffer: 4 << 20 },
  );
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(dir, "wrangler.toml"));
  const before = workerdChildren();
  const mf = new Miniflare({
    ...workerOptions,
    assets: undefined,
    modules: true,
    modulesRoot: out,
    scriptPath: join(out, "index.js"),
    bindings: { ...workerOptions.bindings, SESSION_SECRET, LLM_BASE_URL: llm, LLM_API_KEY: "k" },
    defaultPersistRoot: join(tmp, "state"),
    kvPersist: true,
    durableObjectsPersist: true,
    host: "127.0.0.1",
    port: 0,
    logRequests: false,
    cf: false,
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
  } as ConstructorParameters<typeof Miniflare>[0]);
  await mf.ready;
  const url = (await mf.unsafeGetDirectURL()).origin;
  const pid = [...workerdChildren()].find((p) => !before.has(p));
  if (pid === undefined) throw new Error("no workerd process found");
  const kv = await mf.getKVNamespace("CONFIG");
  const site = { ...demoSite, rateLimits: { sessionPerMinute: 100_000, ipPerMinute: 1_000_000 } };
  await kv.put(`site:${SITE_KEY}`, JSON.stringify(site));
  await kv.put(`agent:${AGENT_ID}`, JSON.stringify(PRESET_AGENTS[AGENT_ID]));
  const tokens: string[] = [];
  for (let i = 0; i < CONC; i++) {
    const { json } = await postJson<SessionResponse>(
      `${url}/v1/sessions`,
      { origin: url },
      { siteKey: SITE_KEY, agentId: AGENT_ID },
    );
    tokens.push(json.token);
  }
  return { dir, url, pid, mf, tmp, tokens, seq: { ttfb: [], leg: [], cpu: 0 }, conc: { ttfb: [], cpu: 0 } };
}

async function turn(side: Side, i: number): Promise<StreamResult> {
  const r = await streamChat(
    `${side.url}/v1/chat/completions`,
    { authorization: `Bearer ${side.tokens[i % side.tokens.length]}`, origin: side.url },
    { stream: true, messages: [{ role: "user", content: `How does sunscreen work? ${i}` }] },
  );
  if (r.status !== 200 || r.content !== GENERIC_REPLY) throw new Error(`${side.dir}: ${r.status} ${r.errorBody}`);
  return r;
}

async function main(): Promise<number> {
  const upstream = await startFakeUpstream({
    apiKey: "k",
    firstTokenMs: num("AB_FIRST_MS", 20),
    chunkMs: num("AB_CHUNK_MS", 5),
  });
  const sides: Side[] = [];
  try {
    for (const dir of dirs) sides.push(await start(dir, upstream.url));
    for (let i = 0; i < 30; i++) for (const s of sides) await turn(s, i);
    for (let i = 0; i < TURNS; i++) {
      for (let k = 0; k < sides.length; k++) {
        const s = sides[(i + k) % sides.length];
        const c0 = cpuMs(s.pid);
        const r = await turn(s, i);
        s.seq.cpu += cpuMs(s.pid) - c0;
        s.seq.ttfb.push(r.ttfb);
        // One turn at a time: the upstream's last request is this turn's.
        s.seq.leg.push(upstream.requests.at(-1)!.receivedAt - r.start);
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < sides.length; k++) {
        const s = sides[(round + k) % sides.length];
        const c0 = cpuMs(s.pid);
        const results = await Promise.all(Array.from({ length: CONC }, (_, i) => turn(s, i)));
        s.conc.ttfb.push(...results.map((r) => r.ttfb));
        s.conc.cpu += cpuMs(s.pid) - c0;
      }
    }
    const row = (s: Side) => {
      const q = summarize(s.seq.ttfb);
      const c = summarize(s.conc.ttfb);
      const leg = summarize(s.seq.leg);
      return {
        cpuSeq: s.seq.cpu / TURNS,
        cpuConc: s.conc.cpu / (CONC * ROUNDS),
        seqP50: q.p50,
        seqP99: q.p99,
        legP50: leg.p50,
        concP50: c.p50,
      };
    };
    const rows = sides.map(row);
    console.log(`\nA/B, ${TURNS} sequential turns and ${ROUNDS} x ${CONC} concurrent a side (ms)`);
    console.log("  side                 CPU/turn seq  CPU/stream conc  TTFB seq p50   p99  leg p50  TTFB conc p50");
    rows.forEach((r, i) =>
      console.log(
        `  ${"AB"[i]} ${dirs[i].slice(-18).padEnd(18)} ${fmt(r.cpuSeq, 2).padStart(12)}` +
          ` ${fmt(r.cpuConc, 2).padStart(16)}` +
          ` ${fmt(r.seqP50, 2).padStart(13)} ${fmt(r.seqP99, 2).padStart(5)} ${fmt(r.legP50, 2).padStart(8)}` +
          ` ${fmt(r.concP50, 2).padStart(14)}`,
      ),
    );
    if (rows.length === 2) {
      const [a, b] = rows;
      console.log(
        `proxy-ab: B/A CPU seq ${fmt(b.cpuSeq / a.cpuSeq, 3)}, CPU conc ${fmt(b.cpuConc / a.cpuConc, 3)}; ` +
          `B-A TTFB seq p50 ${fmt(b.seqP50 - a.seqP50, 2)}, p99 ${fmt(b.seqP99 - a.seqP99, 2)}, ` +
          `request leg seq p50 ${fmt(b.legP50 - a.legP50, 2)}, ` +
          `conc p50 ${fmt(b.concP50 - a.concP50, 2)}`,
      );
    }
    return 0;
  } catch (err) {
    console.error(`proxy-ab failed: ${err instanceof Error ? err.stack : String(err)}`);
    return 2;
  } finally {
    benchAgent.destroy();
    for (const s of sides) {
      await s.mf.dispose().catch(() => undefined);
      rmSync(s.tmp, { recursive: true, force: true });
    }
    await upstream.close();
  }
}

process.exitCode = await main();
