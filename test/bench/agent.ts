import { performance } from "node:perf_hooks";
import { DEMO_SCRIPTS } from "../../worker/demo/index.ts";
import { startFakeUpstream, type FakeUpstream } from "../helpers/fake-upstream.ts";
import { fmt, median } from "../helpers/stats.ts";
import { AGENT_ID, type CallRecord } from "./agent-rig.ts";
import { PATHS, runPath, type PathId, type Sample } from "./agent-paths.ts";

/**
 * The quick path's latency claim, measured on Parley's own agent code: one simple question answered
 * by the agent loop (plain, and classified first: classify + loop + a summary step inside web
 * search, the baseline the quick path is measured against), by the quick path (classify, then
 * retrieval, then one streamed completion), and by the speculative quick path (retrieval while
 * classifying). Completions go through the
 * widget's proxyCompletion to the fake upstream with the worker's request body; edge tools cost
 * a fixed time. Paths are interleaved, rotating order, so drift hits all alike.
 * Env: BENCH_RUNS (default 5), BENCH_FIRST_TOKEN_MS / BENCH_COMPLETION_MS (100 / 300), BENCH_EDGE_MS (300).
 */
const num = (name: string, dflt: number) => (process.env[name] ? Number(process.env[name]) : dflt);
const CFG = {
  runs: num("BENCH_RUNS", 5),
  warm: 1,
  // About 400 ms a completion: a first token, then the rest spread over the stream.
  firstTokenMs: num("BENCH_FIRST_TOKEN_MS", 100),
  completionMs: num("BENCH_COMPLETION_MS", 300),
  edgeMs: num("BENCH_EDGE_MS", 300),
  deadlineMs: num("BENCH_DEADLINE_MS", 50_000),
  /** A path that stalls (upstream stream stuck) ends "aborted" after this and fails the check. */
  turnTimeoutMs: 10_000,
};
/**
 * Goals: within 1.1x of the ideal quick answer, and >= 65 % faster than the classified ReAct
 * baseline (classify, then the loop, with web search's summary step). Against a loop-only ReAct
 * (3 completions + 2 tools) no quick path can save more than 1 - ideal / (3C + 2T) — 55.6 % at
 * 400/300 ms — so that comparison is held to 90 % of its bound instead.
 */
const GOAL = { vsIdeal: 1.1, fasterThanClassifiedReact: 0.65, ofBestVsLoopReact: 0.9 };

const t0 = performance.now();
const log = (msg: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s] ${msg}`);

const times = (samples: Sample[], pick: (s: Sample) => number | undefined) =>
  samples.map(pick).filter((v): v is number => v !== undefined);
const recMs = (s: Sample, kind: CallRecord["kind"]) => s.records.find((r) => r.kind === kind)?.ms;
const slowestTool = (s: Sample) => Math.max(...s.records.filter((r) => r.kind === "tool").map((r) => r.ms));
const firstToolStart = (s: Sample) => Math.min(...s.records.filter((r) => r.kind === "tool").map((r) => r.start));

async function main(): Promise<number> {
  let upstream: FakeUpstream | undefined;
  try {
    upstream = await startFakeUpstream({
      scripts: { [AGENT_ID]: DEMO_SCRIPTS[AGENT_ID] },
      firstTokenMs: CFG.firstTokenMs,
      completionMs: CFG.completionMs,
    });
    log(
      `fake upstream on ${upstream.url}: completion = ${CFG.firstTokenMs} ms ` +
        `first token + ${CFG.completionMs} ms stream; edge tools ${CFG.edgeMs} ms`,
    );
    const ids = Object.keys(PATHS) as PathId[];
    const samples: Record<PathId, Sample[]> = { react: [], classified: [], quick: [], spec: [] };
    let cut = false;
    for (let i = 0; i < CFG.warm + CFG.runs; i++) {
      if (performance.now() - t0 > CFG.deadlineMs) {
        cut = true;
        log(`deadline reached after ${i - CFG.warm} of ${CFG.runs} runs`);
        break;
      }
      // Rotate the order each run so no path always follows another.
      const order = ids.map((_, k) => ids[(k + i) % ids.length]);
      const line: string[] = [];
      for (const id of order) {
        const s = await runPath(upstream, id, CFG);
        if (i >= CFG.warm) samples[id].push(s);
        line.push(`${id} ${fmt(s.ms, 0)}`);
      }
      log(`${i < CFG.warm ? "warm-up" : `run ${i - CFG.warm + 1}/${CFG.runs}`}: ${line.join(", ")} ms`);
    }
    if (samples.spec.length === 0) throw new Error("no measured runs");

    const p50 = Object.fromEntries(ids.map((id) => [id, median(samples[id].map((s) => s.ms))])) as Record<
      PathId,
      number
    >;
    // Parts measured in the speculative runs themselves: the ideal they allow is
    // max(classification, slowest tool) + one completion.
    const spec = samples.spec;
    const classifyMs = median(times(spec, (s) => recMs(s, "classify")));
    const toolMs = median(spec.map(slowestTool));
    const completionMs = median(times(spec, (s) => recMs(s, "quick")));
    const loopCompletionMs = median(
      samples.react.flatMap((s) => s.records.filter((r) => r.kind === "chat").map((r) => r.ms)),
    );
    const ideal = Math.max(classifyMs, toolMs) + completionMs;
    const vsIdeal = p50.spec / ideal;
    const faster = (base: number) => 1 - p50.spec / base;
    // With these timings plain ReAct is 3 completions + 2 tools; the quick path cannot beat 1 - ideal / that.
    const bestVsReact = 1 - ideal / (3 * loopCompletionMs + 2 * toolMs);

    console.log(
      `\nend-to-end, ${spec.length} runs per path, interleaved (ms)      p50      min      max   retrieval starts`,
    );
    for (const id of ids) {
      const ms = samples[id].map((s) => s.ms);
      const retrieval = id === "quick" || id === "spec" ? `+${fmt(median(samples[id].map(firstToolStart)), 0)} ms` : "";
      console.log(
        `  ${PATHS[id].padEnd(52)} ${fmt(p50[id], 0).padStart(6)} ` +
          `${fmt(Math.min(...ms), 0).padStart(8)} ` +
          `${fmt(Math.max(...ms), 0).padStart(8)}   ${retrieval}`,
      );
    }
    console.log(
      `parts (p50, ms): classification ${fmt(classifyMs, 0)}, slowest quick-path ` +
        `tool ${fmt(toolMs, 0)}, quick completion ${fmt(completionMs, 0)}, loop ` +
        `completion ${fmt(loopCompletionMs, 0)}`,
    );
    console.log(
      `ideal quick answer = max(${fmt(classifyMs, 0)}, ${fmt(toolMs, 0)}) ` +
        `+ ${fmt(completionMs, 0)} = ${fmt(ideal, 0)} ms; best possible vs plain ` +
        `ReAct at these timings: ${fmt(bestVsReact * 100, 0)}% faster`,
    );

    const broken: string[] = [];
    if (!(vsIdeal <= GOAL.vsIdeal)) broken.push(`speculative ${fmt(vsIdeal)}x ideal > ${GOAL.vsIdeal}x`);
    if (!(faster(p50.classified) >= GOAL.fasterThanClassifiedReact))
      broken.push(
        `speculative ${fmt(faster(p50.classified) * 100, 0)}% faster than classified ` +
          `ReAct < ${GOAL.fasterThanClassifiedReact * 100}%`,
      );
    if (!(faster(p50.react) >= GOAL.ofBestVsLoopReact * bestVsReact))
      broken.push(
        `speculative ${fmt(faster(p50.react) * 100, 0)}% faster than loop-only ` +
          `ReAct < ${GOAL.ofBestVsLoopReact * 100}% of the ` +
          `possible ${fmt(bestVsReact * 100, 0)}%`,
      );
    if (cut) broken.push("cut short by the deadline");
    console.log(
      `\nspeculative quick path p50 ${fmt(p50.spec, 0)} ms = ${fmt(vsIdeal)}x ideal (goal <= ${GOAL.vsIdeal}) | ` +
        (`${fmt(faster(p50.classified) * 100, 0)}% faster than classified ` +
          `ReAct ${fmt(p50.classified, 0)} ms (goal ` +
          `>= ${GOAL.fasterThanClassifiedReact * 100}%) | `) +
        (`${fmt(faster(p50.react) * 100, 0)}% faster than loop-only ` +
          `ReAct ${fmt(p50.react, 0)} ms (possible: ${fmt(bestVsReact * 100, 0)}%) | `) +
        `${fmt(faster(p50.quick) * 100, 0)}% faster than the quick path ${fmt(p50.quick, 0)} ms | ` +
        (`answers checked | ${((performance.now() - t0) / 1000).toFixed(0)} s ` +
          `| ${broken.length ? `FAIL: ${broken.join("; ")}` : "ok"}`),
    );
    return broken.length ? 1 : 0;
  } catch (err) {
    console.error(`bench:agent failed: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  } finally {
    await upstream?.close().catch(() => undefined);
  }
}

process.exitCode = await main();
