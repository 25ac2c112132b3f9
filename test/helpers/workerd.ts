import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { OFFLINE_ENV } from "./wrangler-dev.ts";

export interface Workerd {
  url: string;
  /** Writes one CONFIG KV entry, as `presets:install` or the console would. */
  putConfig(key: string, value: unknown): Promise<void>;
  stop(): Promise<void>;
}

export interface WorkerdOptions {
  vars: Record<string, string>;
  /** The built static assets (dist/public), served as wrangler.toml's [assets] says; none when omitted. */
  assets?: string;
}

/**
 * The worker as `wrangler deploy` bundles it, with the bindings wrangler derives from wrangler.toml
 * (Durable Objects, KV, R2, vars, [assets] with its _headers), run by Miniflare's workerd on a direct
 * loopback socket: no `wrangler dev` in front (its proxy worker funnels every request through one
 * Durable Object and a second loopback hop). State lives in a temporary folder, on tmpfs where there is
 * one (local workerd syncs each Durable Object commit to disk on the isolate's thread), removed on stop.
 */
export async function startWorkerd(opts: WorkerdOptions): Promise<Workerd> {
  const tmp = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "parley-workerd-"));
  try {
    const out = join(tmp, "out");
    const assets = opts.assets ? resolve(opts.assets) : join(tmp, "no-assets");
    if (!opts.assets) mkdirSync(assets);
    await promisify(execFile)(
      "npx",
      ["wrangler", "deploy", "--dry-run", "-c", "wrangler.toml", "--assets", assets, "--outdir", out],
      { env: { ...process.env, ...OFFLINE_ENV }, timeout: 120_000, maxBuffer: 4 << 20 },
    ).catch((err: { stderr?: string; message: string }) => {
      throw new Error(`wrangler deploy --dry-run failed: ${(err.stderr ?? err.message).slice(-2000)}`);
    });
    const { workerOptions } = unstable_getMiniflareWorkerOptions("wrangler.toml");
    const mf = new Miniflare({
      ...workerOptions,
      ...(opts.assets ? { assets: { ...workerOptions.assets!, directory: assets } } : { assets: undefined }),
      modules: true,
      modulesRoot: out,
      scriptPath: join(out, "index.js"),
      bindings: { ...workerOptions.bindings, ...opts.vars },
      defaultPersistRoot: join(tmp, "state"),
      kvPersist: true,
      durableObjectsPersist: true,
      r2Persist: true,
      host: "127.0.0.1",
      port: 0,
      logRequests: false,
      // No Request.cf download from workers.cloudflare.com.
      cf: false,
      unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
    } as ConstructorParameters<typeof Miniflare>[0]);
    try {
      await mf.ready;
      const url = await mf.unsafeGetDirectURL();
      return {
        url: url.origin,
        async putConfig(key, value) {
          await (await mf.getKVNamespace("CONFIG")).put(key, JSON.stringify(value));
        },
        async stop() {
          await mf.dispose().catch(() => undefined);
          rmSync(tmp, { recursive: true, force: true });
        },
      };
    } catch (err) {
      await mf.dispose().catch(() => undefined);
      throw err;
    }
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
