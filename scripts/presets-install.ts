// `npm run presets:install -- --site <key> --origin https://www.example.com [--origin ...]
//   [--agent <id> ...] [--tenant <id>] [--admin-key-sha256 <hex>] [--jurisdiction eu|fedramp]
//   [--local [--persist-to <dir>]] [--dry-run]`
// A deployed worker serves no presets: this writes the chosen preset agents and the owner's site
// into the CONFIG namespace explicitly (`wrangler kv bulk put`, remote unless --local).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { presetEntries } from "./preset-entries.ts";

const { values } = parseArgs({
  options: {
    site: { type: "string" },
    origin: { type: "string", multiple: true, default: [] },
    agent: { type: "string", multiple: true, default: [] },
    tenant: { type: "string" },
    "admin-key-sha256": { type: "string" },
    jurisdiction: { type: "string" },
    local: { type: "boolean", default: false },
    "persist-to": { type: "string" },
    "dry-run": { type: "boolean", default: false },
  },
});

function fail(message: string): never {
  process.stderr.write(`presets:install: ${message}\n`);
  process.exit(2);
}

if (!values.site) fail("--site <site key> is required");
let entries;
try {
  entries = presetEntries({
    siteKey: values.site,
    origins: values.origin,
    agents: values.agent,
    tenantId: values.tenant,
    adminKeySha256: values["admin-key-sha256"],
    jurisdiction: values.jurisdiction,
  });
} catch (err) {
  fail((err as Error).message);
}

if (values["dry-run"]) {
  process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), "parley-presets-"));
const file = join(dir, "entries.json");
writeFileSync(file, JSON.stringify(entries));
const persistTo = values["persist-to"] ? ["--persist-to", values["persist-to"]] : [];
const where = values.local ? ["--local", ...persistTo] : ["--remote"];
const args = ["wrangler", "kv", "bulk", "put", file, "--binding", "CONFIG", "-c", "wrangler.toml", ...where];
// Local writes need no network; keep wrangler from its update check and metrics then.
const offline = values.local ? { WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true" } : {};
const run = spawnSync("npx", args, { stdio: "inherit", env: { ...process.env, ...offline } });
rmSync(dir, { recursive: true, force: true });
if (run.status === 0) {
  const keys = entries.map((e) => e.key).join(", ");
  process.stdout.write(`Installed ${keys} (${values.local ? "local" : "remote"} CONFIG)\n`);
}
process.exit(run.status ?? 1);
