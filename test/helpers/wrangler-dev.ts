import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Environment that keeps wrangler from reaching the network (see TOOLCHAIN.md). */
export const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
} as const;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

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
 * Starts `wrangler dev` on a free loopback port with fresh local state, in its own process group
 * (killing npx alone leaves workerd running), and waits until /v1/health answers. The port is free
 * when chosen but only bound seconds later: one taken meanwhile (an outgoing connection's source
 * port, another test's server) means another try on another port.
 */
export async function startWranglerDev(opts: WranglerDevOptions = {}): Promise<WranglerDev> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(opts);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof PortTaken)) throw err;
    }
  }
}

class PortTaken extends Error {}

async function startOnce(opts: WranglerDevOptions): Promise<WranglerDev> {
  const port = await freePort();
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
    String(port),
    "--ip",
    "127.0.0.1",
    "--persist-to",
    state,
    "--inspector-port",
    String(await freePort()),
    "--show-interactive-dev-session=false",
    "--log-level",
    "warn",
  ];
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  const child: ChildProcess = spawn("npx", args, {
    cwd: process.cwd(),
    env: { ...process.env, ...OFFLINE_ENV },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
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
      // Bounded: a port someone else holds may accept the connection and never answer.
      const res = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return { url, port, state, stop };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  const message = `wrangler dev did not start on ${url}:\n${output.slice(-3000)}`;
  throw output.includes("Address already in use") ? new PortTaken(message) : new Error(message);
}
