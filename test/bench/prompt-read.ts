import { performance } from "node:perf_hooks";
import { SwrCache } from "../../worker/prompts/swr-cache.ts";
import { composeAgentPrompt } from "../../worker/prompts/prompt-paths.ts";
import { PRESET_AGENTS } from "../../worker/demo/index.ts";
import { summarize, type Summary } from "../helpers/stats.ts";

const salesCoach = PRESET_AGENTS["sales-coach"];

/**
 * The chat path's compiled-prompt read, as the route does it on a warm isolate: the cache's
 * get (a fresh hit; a registry read happens at most every 5 s per isolate and agent). Timed in
 * Node with the worker's own module, in batches, since one read is below the clock's resolution.
 */
export async function measurePromptRead(batches = 2000, perBatch = 100): Promise<Summary> {
  const part = (text: string) => ({ text, variables: [], version: 1 });
  const value = {
    text: composeAgentPrompt({
      system: part(salesCoach.systemPrompt),
      strategies: part(salesCoach.strategies ?? ""),
      guidance: part(salesCoach.guidance ?? ""),
    }),
  };
  const cache = new SwrCache<typeof value>({ freshMs: 5_000, maxStaleMs: 30_000 });
  const read = async () => value;
  await cache.get("site/sales-coach", read);
  const ms: number[] = [];
  for (let b = 0; b < batches; b++) {
    const start = performance.now();
    for (let i = 0; i < perBatch; i++) await cache.get("site/sales-coach", read);
    ms.push((performance.now() - start) / perBatch);
  }
  return summarize(ms);
}
