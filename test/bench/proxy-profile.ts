import { performance } from "node:perf_hooks";
import type { SessionResponse } from "../../shared/api.ts";
import { demoSite, PRESET_AGENTS } from "../../worker/demo/index.ts";
import { startFakeUpstream } from "../helpers/fake-upstream.ts";
import { fmt } from "../helpers/stats.ts";
import { benchStack } from "./bench-stack.ts";
import { profileWorker } from "./profile-cdp.ts";
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

    const busy = await profileWorker(PORT, TURNS, TOP, async () => {
      for (let i = 0; i < TURNS; i++) await turn(i);
    });
    console.log(
      `\nproxy-profile: workerd CPU ${fmt(cpuPerTurn, 3)} ms per turn (process, all threads), ` +
        `isolate JS busy ${fmt(busy / 1000, 3)} ms per turn (profile, not idle/GC), ` +
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
