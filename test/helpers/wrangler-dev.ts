import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Environment that keeps wrangler from reaching the network (docs/contributing.md: working offline). */
export const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
} as const;

/** The address wrangler listens on, as it reports it. */
const READY = /Ready on (http:\/\/127\.0\.0\.1:\d+)\s/;
const OUTPUT_KEPT = 8_000;

export interface WranglerDev {
  url: string;
  port: number;
  /** The local state folder (`--persist-to`): Durable Objects and KV, e.g. for `wrangler kv ... --local`. */
  state: string;
  stop(): Promise<void>;
}

export interface WranglerDevOptions {
  vars?: Record<string, string>;
  /** DEMO_MODE, as `npm start` sets it (default true); false runs the worker as deployed. */
  demo?: boolean;
  /** Local state to use and keep (default: a fresh folder, removed on stop). */
  state?: string;
  timeoutMs?: number;
}

/**
 * Starts `wrangler dev` on a loopback port it binds itself (port 0: no port chosen here that another
 * process could take before wrangler binds it), with fresh local state, in its own process group
 * (killing npx alone leaves workerd running), and waits until /v1/health answers at the address
 * wrangler reports ("Ready on ...", an info line).
 */
export async function startWranglerDev(opts: WranglerDevOptions = {}): Promise<WranglerDev> {
  const state = opts.state ?? mkdtempSync(join(tmpdir(), "parley-state-"));
  const vars = {
    SESSION_SECRET: "dev-secret-for-tests-0123456789abcdef",
    ...(opts.demo === false ? {} : { DEMO_MODE: "1" }),
    ...opts.vars,
  };
  const args = [
    "wrangler",
    "dev",
    "-c",
    "wrangler.toml",
    "--port",
    "0",
    "--ip",
    "127.0.0.1",
    "--persist-to",
    state,
    "--inspector-port",
    "0",
    "--show-interactive-dev-session=false",
    "--log-level",
    "info",
  ];
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  const child: ChildProcess = spawn("npx", args, {
    cwd: process.cwd(),
    env: { ...process.env, ...OFFLINE_ENV },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Info level logs every request too: only the tail is kept, for the error below.
  let output = "";
  let url: string | undefined;
  const take = (d: Buffer) => {
    output = (output + d).slice(-OUTPUT_KEPT);
    url ??= READY.exec(output)?.[1];
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
      await new Promise((r) => setTimeout(r, 300));
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    if (!opts.state) rmSync(state, { recursive: true, force: true });
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if (url && (await fetch(`${url}/v1/health`)).ok) return { url, port: Number(new URL(url).port), state, stop };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`wrangler dev did not start${url ? ` on ${url}` : ""}:\n${output.slice(-3000)}`);
}
