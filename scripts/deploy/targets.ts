import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { DeployOptions } from "./options.ts";
import { envFileNames, envLines } from "./secrets.ts";
import type { DeployEntry } from "./site-plan.ts";
import { jsonIn, uploadSize, wrangler } from "./wrangler.ts";

/**
 * Where a deploy goes: Cloudflare (wrangler against the account), or local storage as `wrangler dev`
 * keeps it (miniflare's, under --persist-to), which runs the same steps with no account. Reads never
 * change anything (a dry run makes only reads); `null` from a read means it could not be made.
 */
export interface Target {
  /** Whether the steps that need the account can run, and who it is. */
  account(): { ok: boolean; line: string };
  /** KV, R2 and the Durable Objects' migrations: what exists, what the deploy creates. */
  storage(): string[];
  secretNames(): Set<string> | null;
  /** Deploys (or, dry, builds the bundle only) with the secrets to add; the worker's address and what happened. */
  deploy(secrets: Record<string, string>, dryRun: boolean): { url?: string; lines: string[] };
  kvRead(keys: string[]): Record<string, string | null> | null;
  kvWrite(entries: DeployEntry[]): void;
}

/** KV and R2 names wrangler gives what it provisions for this worker (`<worker>-<binding>`) and the toml names. */
const KV_NAME = "parley-config";
const R2_NAME = "parley-photos";

function migrationTags(): string[] {
  return [...readFileSync("wrangler.toml", "utf8").matchAll(/^tag = "([^"]+)"/gm)].map((m) => m[1]);
}

function withTempFile<T>(name: string, content: string, use: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "parley-deploy-"));
  const file = join(dir, name);
  writeFileSync(file, content, { mode: 0o600 });
  try {
    return use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function must(run: { ok: boolean; stdout: string; stderr: string }, what: string) {
  if (!run.ok) throw new Error(`${what} failed:\n${(run.stderr || run.stdout).trim().slice(-2000)}`);
  return run;
}

function bulkGet(keys: string[], where: string[]): Record<string, string | null> | null {
  return withTempFile("keys.json", JSON.stringify(keys), (file) => {
    const run = wrangler(["kv", "bulk", "get", file, "--binding", "CONFIG", ...where], {
      offline: where.includes("--local"),
    });
    const found = run.ok ? jsonIn<Record<string, { value: string | null }>>(run.stdout) : null;
    return found ? Object.fromEntries(keys.map((k) => [k, found[k]?.value ?? null])) : null;
  });
}

function bulkPut(entries: DeployEntry[], where: string[]) {
  withTempFile("entries.json", JSON.stringify(entries), (file) =>
    must(
      wrangler(["kv", "bulk", "put", file, "--binding", "CONFIG", ...where], { offline: where.includes("--local") }),
      "Writing the site to KV",
    ),
  );
}

const signedIn = () =>
  !!process.env.CLOUDFLARE_API_TOKEN ||
  [
    join(homedir(), ".config", ".wrangler", "config", "default.toml"),
    join(homedir(), ".wrangler", "config", "default.toml"),
  ].some(existsSync);

export function remoteTarget(): Target {
  let account: boolean | undefined;
  return {
    account() {
      // No credentials at all: say so without asking wrangler (which would go to the network).
      if (!signedIn())
        return { ok: (account = false), line: "not signed in: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN)" };
      const run = wrangler(["whoami"]);
      account = run.ok && !/not authenticated/i.test(run.stdout);
      const who = /associated with the email (\S+)|(API Token)/.exec(run.stdout);
      return { ok: account, line: account ? `signed in${who ? ` (${who[1] ?? who[2]})` : ""}` : run.stdout.trim() };
    },
    storage() {
      const tags = migrationTags();
      const migrations =
        `Durable Object migrations ${tags[0]}–${tags.at(-1)}: ` + "wrangler deploy applies those the worker lacks";
      if (!account)
        return [`KV namespace ${KV_NAME}, R2 bucket ${R2_NAME}: wrangler deploy creates them if missing`, migrations];
      const kv = jsonIn<Array<{ title: string }>>(wrangler(["kv", "namespace", "list"]).stdout) ?? [];
      const r2 = wrangler(["r2", "bucket", "list"]).stdout;
      const state = (exists: boolean) => (exists ? "exists, reused" : "missing: wrangler deploy creates it");
      return [
        `KV namespace ${KV_NAME}: ${state(kv.some((n) => n.title === KV_NAME))}`,
        `R2 bucket ${R2_NAME}: ${state(new RegExp(`^name:\\s+${R2_NAME}$`, "m").test(r2))}`,
        migrations,
      ];
    },
    secretNames() {
      if (!account) return null;
      const run = wrangler(["secret", "list", "--format", "json"]);
      const listed = run.ok ? jsonIn<Array<{ name: string }>>(run.stdout) : null;
      if (listed) return new Set(listed.map((s) => s.name));
      // No worker yet: it has no secrets. Any other failure must not pass for "none set" (a new
      // SESSION_SECRET would sign every visitor and the owner out).
      if (/does not exist|\b10007\b/i.test(run.stdout + run.stderr)) return new Set();
      throw new Error(`Could not list the worker's secrets:\n${(run.stderr || run.stdout).trim().slice(-2000)}`);
    },
    deploy(secrets, dryRun) {
      if (dryRun) {
        const out = mkdtempSync(join(tmpdir(), "parley-bundle-"));
        const run = wrangler(["deploy", "--dry-run", "--outdir", out], { offline: true });
        rmSync(out, { recursive: true, force: true });
        const size = uploadSize(run.stdout);
        return { lines: [`would upload the worker${size ? ` (${size})` : ""} and the widget's files`] };
      }
      const deploy = (extra: string[]) => must(wrangler(["deploy", ...extra], { show: true }), "wrangler deploy");
      const run = Object.keys(secrets).length
        ? withTempFile("secrets.json", JSON.stringify(secrets), (file) => deploy(["--secrets-file", file]))
        : deploy([]);
      const url = /https:\/\/[a-z0-9.-]+\.workers\.dev/.exec(run.stdout)?.[0];
      const size = uploadSize(run.stdout);
      return { url, lines: [`deployed${url ? ` to ${url}` : ""}${size ? ` (${size})` : ""}`] };
    },
    kvRead: (keys) => (account ? bulkGet(keys, ["--remote"]) : null),
    kvWrite: (entries) => bulkPut(entries, ["--remote"]),
  };
}

export function localTarget(opts: Pick<DeployOptions, "persistTo" | "envFile">): Target {
  const where = ["--local", "--persist-to", opts.persistTo];
  return {
    account: () => ({ ok: true, line: `none needed: local storage under ${opts.persistTo}` }),
    storage: () => [
      `KV CONFIG, R2 PHOTOS and the Durable Objects (migrations ${migrationTags().join(", ")}) ` +
        `under ${opts.persistTo}: wrangler dev makes them on first use`,
    ],
    secretNames: () => envFileNames(opts.envFile),
    deploy(secrets, dryRun) {
      const names = Object.keys(secrets);
      if (names.length && !dryRun) appendFileSync(opts.envFile, envLines(secrets), { mode: 0o600 });
      const wrote = names.length ? `${dryRun ? "would write" : "wrote"} ${names.join(", ")} to ${opts.envFile}; ` : "";
      return {
        lines: [
          `${wrote}nothing to upload: serve it with ` +
            `npx wrangler dev -c wrangler.toml --persist-to ${opts.persistTo} --env-file ${opts.envFile}`,
        ],
      };
    },
    // No storage yet: nothing to read (and reading would create the folder).
    kvRead: (keys) =>
      existsSync(opts.persistTo) ? bulkGet(keys, where) : Object.fromEntries(keys.map((k) => [k, null])),
    kvWrite: (entries) => bulkPut(entries, where),
  };
}
