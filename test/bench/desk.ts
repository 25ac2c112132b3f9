import { performance } from "node:perf_hooks";
import { DEMO_ADMIN_KEY, demoSite } from "../../worker/demo/index.ts";
import type { Span } from "../../shared/admin/desk-records.ts";
import { benchStack } from "./bench-stack.ts";
import { startBenchWorker } from "./worker-runtime.ts";

/**
 * bench:desk: time from the last request to a promoted version, against the debounce
 * plus the completions' own time, with every scripted completion taking COMPLETION_MS. The worker
 * runs in workerd with the demo model (DEMO_MODE, DEMO_COMPLETION_MS); the sales coach gets a
 * thumbs-down "too pushy about price" and two owner notes; the desk's alarm runs A, B, C (two
 * loops) and the regression gate, then promotes. Times are the worker's own (request `at`, run
 * `endedAt`); the script only polls. Prints the run's trace and the figures last; exits 1 when the
 * overhead is above the goal.
 */
const num = (name: string, dflt: number) => (process.env[name] ? Number(process.env[name]) : dflt);
const DEBOUNCE_MS = num("BENCH_DESK_DEBOUNCE_MS", 3_000);
const COMPLETION_MS = num("BENCH_DESK_COMPLETION_MS", 400);
const GOAL = 0.1;
const SITE = demoSite.siteKey;
const ORIGIN = "http://127.0.0.1:8787";
const t0 = performance.now();
const log = (msg: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s] ${msg}`);

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`POST ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return text.startsWith("{") ? JSON.parse(text) : text;
}

function printSpan(span: Span, depth = 0): void {
  const a = span.attrs;
  const extra = [
    a.model && `${a.model}`,
    a.promptTokens !== undefined && `${Number(a.promptTokens) + Number(a.completionTokens)} tokens`,
    a.score !== undefined && `score ${a.score}`,
    a.status && `${a.status}`,
    a.toolCalls && `calls ${a.toolCalls}`,
  ]
    .filter(Boolean)
    .join(", ");
  console.log(
    `${"  ".repeat(depth)}${span.ok ? "+" : "x"} ${span.kind} ${span.name} ${span.ms} ms${extra ? ` (${extra})` : ""}`,
  );
  for (const child of span.children) printSpan(child, depth + 1);
}

async function main(): Promise<number> {
  const stack = benchStack();
  try {
    const worker = (stack.worker = await startBenchWorker("workerd", {
      DEMO_MODE: "1",
      DEMO_CHUNK_MS: "0",
      DEMO_COMPLETION_MS: String(COMPLETION_MS),
    }));
    log(`worker on ${worker.url}: ${worker.label}`);
    await worker.putConfig?.(`site:${SITE}`, {
      ...demoSite,
      desk: { debounceMs: DEBOUNCE_MS, autoPromote: true, dailyTokens: 200_000 },
    });
    const admin = { "x-parley-admin-key": DEMO_ADMIN_KEY };
    const session = await post(`${worker.url}/v1/sessions`, { siteKey: SITE, agentId: "sales-coach" });
    const auth = { authorization: `Bearer ${session.token}` };
    await post(
      `${worker.url}/v1/chat/completions`,
      {
        stream: true,
        messages: [{ id: "q1", role: "user", content: "A clinic asks whether our moisturiser suits eczema patients" }],
        parley: { replyId: "a1" },
      },
      auth,
    );
    await post(
      `${worker.url}/v1/sessions/${session.sessionId}/feedback`,
      { messageId: "a1", rating: "down", comment: "too pushy about price" },
      auth,
    );
    await post(
      `${worker.url}/v1/admin/desk/sales-coach/notes?site=${SITE}`,
      { text: "Reps say customers feel rushed" },
      admin,
    );
    const last = await post(
      `${worker.url}/v1/admin/desk/sales-coach/notes?site=${SITE}`,
      { text: "Keep offering samples" },
      admin,
    );
    log(
      `3 requests queued; the last at ${new Date(last.request.at).toISOString()}, ` +
        `run due ${last.runAt - last.request.at} ms later`,
    );

    let run:
      | {
          id: string;
          status: string;
          endedAt: number;
          completions: number;
          tokens: number;
          loops: number;
          scores: number[];
        }
      | undefined;
    for (let i = 0; i < 120 && run?.status !== "promoted"; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const res = await fetch(`${worker.url}/v1/admin/desk/sales-coach/runs?site=${SITE}`, { headers: admin });
      run = ((await res.json()) as { runs: NonNullable<typeof run>[] }).runs[0];
      if (run && run.status !== "running" && run.status !== "promoted") throw new Error(`the run ended ${run.status}`);
    }
    if (run?.status !== "promoted") throw new Error("no promoted version within 2 minutes");
    const detail = (await (
      await fetch(`${worker.url}/v1/admin/desk/sales-coach/runs/${run.id}?site=${SITE}`, { headers: admin })
    ).json()) as { trace: Span };
    console.log("\nthe run's trace (spans: + ok, x not):");
    printSpan(detail.trace);

    const measured = run.endedAt - last.request.at;
    const expected = DEBOUNCE_MS + run.completions * COMPLETION_MS;
    const overhead = measured / expected - 1;
    const ok = overhead <= GOAL;
    console.log(
      `\nlast request -> promoted: ${measured} ms; ` +
        `debounce ${DEBOUNCE_MS} ms + ${run.completions} completions x ${COMPLETION_MS} ms = ${expected} ms`,
    );
    console.log(
      `run: ${run.loops} loops, scores ${run.scores.join(" -> ")}, ${run.tokens} tokens; ` +
        `desk work besides waiting: ${measured - expected} ms`,
    );
    console.log(
      `  ${ok ? "PASS" : "FAIL"}  overhead over debounce + completions <= ${GOAL * 100} %   ` +
        `${(overhead * 100).toFixed(1)} % (ratio ${(measured / expected).toFixed(3)})`,
    );
    console.log(
      `bench:desk ${ok ? "PASS" : "FAIL"} | ${measured} ms vs ${expected} ms expected | ` +
        `overhead ${(overhead * 100).toFixed(1)} % (goal <= ${GOAL * 100} %)`,
    );
    return ok ? 0 : 1;
  } catch (err) {
    console.error(`bench:desk failed: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  } finally {
    await stack.stop();
  }
}

process.exitCode = await main();
