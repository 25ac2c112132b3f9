import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { DEMO_ADMIN_KEY } from "../../worker/demo/index.ts";

/** The demo site's admin key (published for local runs) and the digest KV holds for it. */
export const ADMIN_SECRETS: Record<string, string> = {
  "demo admin key": DEMO_ADMIN_KEY,
  "demo admin key SHA-256": createHash("sha256").update(DEMO_ADMIN_KEY).digest("hex"),
};

/** Secrets a developer configured locally for `npm start` (git-ignored), when there are any. */
export function devVars(): Record<string, string> {
  if (!existsSync(".dev.vars")) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(".dev.vars", "utf8").split("\n")) {
    const m = /^\s*([A-Z0-9_]*(?:KEY|SECRET|TOKEN)[A-Z0-9_]*)\s*=\s*"?([^"\n]+?)"?\s*$/.exec(line);
    if (m && m[2].length >= 8) out[`.dev.vars ${m[1]}`] = m[2];
  }
  return out;
}

/** The names of the secrets `text` contains. */
export function secretsIn(text: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets)
    .filter(([, v]) => text.includes(v))
    .map(([k]) => k);
}

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}
