import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { OFFLINE_ENV, startWranglerDev } from "../helpers/wrangler-dev.ts";

export type RuntimeKind = "workerd" | "wrangler-dev";

export interface BenchWorker {
  url: string;
  port: number;
  /** What serves the worker, for the bench's output. */
  label: string;
  /** CPU time (user + system, ms) the workerd process used so far, when it can be read. */
  cpuMs(): number | undefined;
  /** Writes a CONFIG KV entry before the run (e.g. a site with raised rate limits); workerd runtime only. */
  putConfig?(key: string, value: unknown): Promise<void>;
  /** Calls the site's SiteLedger object has answered (its in-memory counter, read over RPC); workerd runtime only. */
  siteLedgerCalls?(siteKey: string): Promise<number>;
  stop(): Promise<void>;
}

const miniflareVersion = (createRequire(import.meta.url)("miniflare/package.json") as { version: string }).version;
const SESSION_SECRET = "dev-secret-for-tests-0123456789abcdef";

export interface BenchWorkerOptions {
  /**
   * Serve the built widget and the demo pages (dist/public, as wrangler.toml's [assets] says) from the
   * worker, so a page such as the clinic's loads the widget from the origin it talks to. Needs
   * `npm run build`. The workerd runtime serves the files but not `_headers` (no page policy).
   */
  assets?: boolean;
}

/**
 * The worker as the bench measures it.
 *
 * "workerd" (default): the bundle `wrangler deploy --dry-run` builds from wrangler.toml, with the
 * bindings wrangler derives from the same file (Durable Object, KV, vars), run by Miniflare's
 * workerd on a direct socket to the worker. That skips two dev-only layers in front of it:
 * wrangler dev's ProxyWorker (every request funnelled through one Durable Object that re-fetches
 * the worker over a second loopback hop; it stalls and buffers concurrent streams) and Miniflare's
 * entry worker (request logging that posts back to Node on every request). Static assets are left
 * out unless asked for (`opts.assets`): the chat route never reaches them.
 *
 * "wrangler-dev": `wrangler dev` as `npm start` runs it, for comparison.
 */
export async function startBenchWorker(
  kind: RuntimeKind,
  vars: Record<string, string>,
  opts: BenchWorkerOptions = {},
): Promise<BenchWorker> {
  if (kind === "wrangler-dev") {
    const dev = await startWranglerDev({ vars });
    return {
      ...dev,
      label: "wrangler dev 4.86 (ProxyWorker -> Miniflare entry worker -> worker)",
      cpuMs: () => undefined,
    };
  }
  // On tmpfs where there is one: local workerd syncs every Durable Object SQLite commit to disk on
  // the isolate's only thread, so on a slow disk each write stalls every stream (about 35 ms of
  // TTFB at 50 concurrent streams on these machines). On Cloudflare, durability is the storage
  // layer's work behind output gates, not a disk sync on the isolate's thread.
  const tmp = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "parley-bench-"));
  try {
    const out = join(tmp, "out");
    const assets = join(tmp, "assets");
    mkdirSync(assets);
    // --assets points at an empty folder so the build does not depend on `npm run build`.
    await promisify(execFile)(
      "npx",
      ["wrangler", "deploy", "--dry-run", "-c", "wrangler.toml", "--assets", assets, "--outdir", out],
      {
        env: { ...process.env, ...OFFLINE_ENV },
        timeout: 60_000,
        maxBuffer: 4 << 20,
      },
    ).catch((err: { stderr?: string; message: string }) => {
      throw new Error(`wrangler deploy --dry-run failed: ${(err.stderr ?? err.message).slice(-2000)}`);
    });
    const { workerOptions } = unstable_getMiniflareWorkerOptions("wrangler.toml");
    const { mf, url } = await startOnLoopback({
      ...workerOptions,
      assets: opts.assets ? workerOptions.assets : undefined,
      modules: true,
      modulesRoot: out,
      scriptPath: join(out, "index.js"),
      bindings: { ...workerOptions.bindings, SESSION_SECRET, ...vars },
      defaultPersistRoot: join(tmp, "state"),
      kvPersist: true,
      durableObjectsPersist: true,
      // For a CPU profile of the worker (Chrome DevTools protocol), e.g. BENCH_INSPECTOR_PORT=9229.
      ...(process.env.BENCH_INSPECTOR_PORT ? { inspectorPort: Number(process.env.BENCH_INSPECTOR_PORT) } : {}),
    });
    const pid = childWorkerd();
    return {
      url: url.origin,
      cpuMs: () => (pid === undefined ? undefined : cpuMsOf(pid)),
      async putConfig(key, value) {
        await (await mf.getKVNamespace("CONFIG")).put(key, JSON.stringify(value));
      },
      async siteLedgerCalls(siteKey) {
        const ns = await mf.getDurableObjectNamespace("SITE_LEDGER");
        const stub = ns.get(ns.idFromName(siteKey)) as unknown as { calls(): Promise<number> };
        try {
          return await stub.calls();
        } catch {
          return NaN; // a worker without the counter (an older SiteLedger)
        }
      },
      port: Number(url.port),
      label:
        `workerd via Miniflare ${miniflareVersion}, direct socket to the worker ` +
        `(wrangler-built bundle, bindings from wrangler.toml, storage ` +
        `in ${tmp.startsWith("/dev/shm") ? "tmpfs" : "the temp folder"})`,
      async stop() {
        await mf.dispose().catch(() => undefined);
        rmSync(tmp, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** The workerd process Miniflare spawned from this process (Linux /proc; undefined elsewhere). */
function childWorkerd(): number | undefined {
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? [];
      if (comm === "workerd" && Number(rest?.split(" ")[1]) === process.pid) return Number(entry);
    }
  } catch {
    /* no /proc */
  }
  return undefined;
}

function cpuMsOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /s, "")
      .split(" ");
    // utime and stime (fields 14 and 15 of stat) in clock ticks, 100 per second on Linux.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * The runtime's own cost, for comparison in the same run: the least any proxy in workerd does (read
 * the request, call the provider with the key, return its body untouched, natively), with no
 * session, limits, validation or copy. Parley's own overhead is what it adds on top of this.
 */
const FLOOR_SCRIPT = `import { DurableObject } from "cloudflare:workers";
const call = (env, body) =>
  fetch(env.LLM_BASE_URL + "/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer " + env.LLM_API_KEY },
    body,
  });
export class Relay extends DurableObject {
  async relay(body) {
    return (await call(this.env, body)).body;
  }
}
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/do") {
      const room = env.RELAY.get(env.RELAY.idFromName(url.searchParams.get("s") ?? "0"));
      const body = await room.relay(await request.text());
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    const upstream = await call(env, await request.text());
    return new Response(upstream.body, { status: upstream.status, headers: { "content-type": "text/event-stream" } });
  },
};`;

/**
 * The same worker serves the floor with a Durable Object in the path at /do?s=<session>: one
 * object per session calls the provider and answers its body over RPC, as Parley's session object
 * runs a streamed reply. What it adds over the floor is the object's hop, before any of Parley's work.
 */
export async function startFloorWorker(vars: { LLM_BASE_URL: string; LLM_API_KEY: string }): Promise<BenchWorker> {
  const { mf, url } = await startOnLoopback({
    modules: true,
    script: FLOOR_SCRIPT,
    // The same runtime behaviour as Parley's worker.
    compatibilityDate: unstable_getMiniflareWorkerOptions("wrangler.toml").workerOptions.compatibilityDate,
    bindings: vars,
    durableObjects: { RELAY: "Relay" },
  });
  return {
    url: url.origin,
    port: Number(url.port),
    label: "bare pass-through worker in the same workerd (and at /do, through a Durable Object)",
    cpuMs: () => undefined,
    async stop() {
      await mf.dispose().catch(() => undefined);
    },
  };
}

type MiniflareOptions = ConstructorParameters<typeof Miniflare>[0];

/**
 * A worker in workerd reached on a direct socket, on loopback only: no request logging, and no
 * Request.cf download from workers.cloudflare.com. Disposed again if it fails to start.
 */
async function startOnLoopback(options: Record<string, unknown>): Promise<{ mf: Miniflare; url: URL }> {
  const mf = new Miniflare({
    ...options,
    host: "127.0.0.1",
    port: 0,
    logRequests: false,
    cf: false,
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
  } as MiniflareOptions);
  try {
    await mf.ready;
    return { mf, url: await mf.unsafeGetDirectURL() };
  } catch (err) {
    await mf.dispose().catch(() => undefined);
    throw err;
  }
}
