import type { FakeUpstream } from "../helpers/fake-upstream.ts";
import { benchAgent } from "./sse-client.ts";
import type { BenchWorker } from "./worker-runtime.ts";

/**
 * What a benchmark starts — the fake upstream, the worker, the client's sockets — stopped once
 * whatever happens: the end of the run, an error, Ctrl-C or a CI timeout (SIGTERM), so no workerd
 * is left behind.
 */
export interface BenchStack {
  upstream?: FakeUpstream;
  worker?: BenchWorker;
  stop(): Promise<void>;
}

export function benchStack(): BenchStack {
  const stack: BenchStack = {
    async stop() {
      benchAgent.destroy();
      const { worker, upstream } = stack;
      stack.worker = stack.upstream = undefined;
      await worker?.stop().catch(() => undefined);
      await upstream?.close().catch(() => undefined);
    },
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const)
    process.once(sig, () => void stack.stop().finally(() => process.exit(130)));
  return stack;
}
