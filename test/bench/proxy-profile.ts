import { performance } from "node:perf_hooks";
import { fmt } from "../helpers/stats.ts";
import { benchStack } from "./bench-stack.ts";
import { profiledWorker, profileWorker } from "./profile-cdp.ts";
import { streamChat } from "./sse-client.ts";

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

async function main(): Promise<number> {
  const stack = benchStack();
  try {
    const { worker, origin, sessions } = await profiledWorker(stack, PORT, 0);
    const tokens = (await sessions(20)).map((s) => s.token);
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
