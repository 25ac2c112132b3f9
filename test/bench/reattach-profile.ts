import { performance } from "node:perf_hooks";
import { fmt } from "../helpers/stats.ts";
import { benchStack } from "./bench-stack.ts";
import { profiledWorker, profileWorker } from "./profile-cdp.ts";
import { rawGet } from "./raw-stream.ts";

/**
 * What one reattachment costs the worker (the reconnect storm's unit): SESSIONS visitors each start a
 * slow reply and drop it; then reattachments through the live channel's SSE form
 * (`?reply=<id>&from=<offset>`, the storm's raw client), each read to its first frame of the reply's
 * text, round the sessions: one at a time so nothing queues, or PROFILE_BURST at once (30: one per
 * session, as a storm sends them; the figure then varies less from run to run). Prints the workerd
 * process's CPU and the wall time per reattachment, then a V8 CPU profile of the isolate
 * (PROFILE_CPU_ONLY=1: the figures alone). Each reattachment here leaves once it has its first frame,
 * so its CPU includes tearing the stream down, which a storm's visitors, who stay, do not cost.
 * Env: PROFILE_REATTACH (300), PROFILE_BURST (1), PROFILE_TOP (25), PROFILE_PORT (inspector port, 9332).
 */
const num = (name: string, dflt: number) => (process.env[name] ? Number(process.env[name]) : dflt);
const COUNT = num("PROFILE_REATTACH", 300);
const TOP = num("PROFILE_TOP", 25);
const PORT = num("PROFILE_PORT", 9332);
const BURST = num("PROFILE_BURST", 1);
const SESSIONS = 30;

async function main(): Promise<number> {
  const stack = benchStack();
  try {
    // 43 pieces 400 ms apart: every reply still streams while the reattachments run.
    const { worker, origin, sessions: open } = await profiledWorker(stack, PORT, 400);
    const sessions = await open(SESSIONS);
    for (const [i, s] of sessions.entries()) {
      const drop = new AbortController();
      const res = await fetch(`${worker.url}/v1/chat/completions`, {
        method: "POST",
        signal: drop.signal,
        headers: { authorization: `Bearer ${s.token}`, origin, "content-type": "application/json" },
        body: JSON.stringify({
          stream: true,
          messages: [{ role: "user", content: `hi ${i}` }],
          parley: { replyId: `r${i}` },
        }),
      });
      if (res.status !== 200) throw new Error(`chat ${i}: ${res.status} ${await res.text()}`);
      await res.body!.getReader().read();
      drop.abort();
    }
    const reattach = (i: number) =>
      new Promise<void>((resolve, reject) => {
        const s = sessions[i % SESSIONS];
        const url = new URL(`${worker.url}/v1/sessions/${s.sessionId}/live?reply=r${i % SESSIONS}&from=10`);
        const stop = rawGet(
          url,
          { authorization: `Bearer ${s.token}`, origin },
          {
            sent: () => {},
            status: (code) => void (code !== 200 && reject(new Error(`live answered ${code}`))),
            body: (text) => {
              if (!text.includes('"t":"r"')) return;
              stop();
              resolve();
            },
            end: () => reject(new Error("the reply ended before the reattachments did")),
            error: reject,
          },
        );
      });
    const all = async () => {
      for (let i = 0; i < COUNT; i += BURST)
        await Promise.all(Array.from({ length: Math.min(BURST, COUNT - i) }, (_, k) => reattach(i + k)));
    };
    for (let i = 0; i < 50; i++) await reattach(i);
    const cpu0 = worker.cpuMs()!;
    const wall0 = performance.now();
    await all();
    const cpu = (worker.cpuMs()! - cpu0) / COUNT;
    const wall = (performance.now() - wall0) / COUNT;
    const busy = process.env.PROFILE_CPU_ONLY ? undefined : await profileWorker(PORT, COUNT, TOP, all);
    console.log(
      `\nreattach-profile: workerd CPU ${fmt(cpu, 3)} ms per reattachment (process, all threads), ` +
        (busy === undefined ? "" : `isolate JS busy ${fmt(busy / 1000, 3)} ms (profile, not idle/GC), `) +
        `wall ${fmt(wall, 2)} ms` +
        (BURST > 1 ? ` (in bursts of ${BURST})` : ""),
    );
    return 0;
  } catch (err) {
    console.error(`reattach-profile failed: ${err instanceof Error ? err.stack : String(err)}`);
    return 2;
  } finally {
    await stack.stop();
  }
}

process.exitCode = await main();
