import { spawnSync } from "node:child_process";

/**
 * What keeps wrangler off the network where it has no reason to go: local work and dry runs
 * (docs/contributing.md: working offline).
 */
export const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
} as const;

export interface WranglerRun {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/**
 * Runs `wrangler <args> -c wrangler.toml` and captures its output (a secret never goes in `args`:
 * they travel in a file wrangler reads). `offline` adds OFFLINE_ENV; `show` streams the output too
 * (a deploy's progress).
 */
export function wrangler(args: string[], opts: { offline?: boolean; show?: boolean } = {}): WranglerRun {
  const run = spawnSync("npx", ["wrangler", ...args, "-c", "wrangler.toml"], {
    encoding: "utf8",
    env: { ...process.env, ...(opts.offline ? OFFLINE_ENV : {}) },
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 16 << 20,
  });
  if (opts.show) process.stdout.write(run.stdout + run.stderr);
  return { ok: run.status === 0, stdout: run.stdout ?? "", stderr: run.stderr ?? "" };
}

/** The JSON object or array in a command's output (wrangler may print lines around it). */
export function jsonIn<T>(text: string): T | null {
  const start = text.search(/^[[{]/m);
  if (start < 0) return null;
  const close = text[start] === "{" ? "}" : "]";
  const end = text.lastIndexOf(`\n${close}`);
  try {
    return JSON.parse(text.slice(start, end < 0 ? undefined : end + 2)) as T;
  } catch {
    return null;
  }
}

/** `Total Upload: 1087.69 KiB / gzip: 314.53 KiB`, as `wrangler deploy` (and its dry run) reports it. */
export function uploadSize(text: string): string | null {
  return /Total Upload: ([\d.]+ \w+) \/ gzip: ([\d.]+ \w+)/.exec(text)?.slice(1).join(", gzip ") ?? null;
}
