import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";

/** The worker's secrets a deploy looks after (wrangler.toml names them). */
export const SECRET_NAMES = ["SESSION_SECRET", "LLM_BASE_URL", "LLM_API_KEY"] as const;
type SecretName = (typeof SECRET_NAMES)[number];

export interface SecretsPlan {
  /** The secrets to set, by name: only those the worker lacks. */
  set: Partial<Record<SecretName, string>>;
  lines: string[];
}

/**
 * Which secrets to set: SESSION_SECRET made here when missing; the provider's address and key from
 * the options (or the environment, for CI) when missing. One already set is kept, whatever is given:
 * a deploy changes only what is missing. `existing` null: the worker's secrets could not be read.
 */
export function planSecrets(
  existing: ReadonlySet<string> | null,
  given: { providerUrl?: string; providerKey?: string },
  dryRun = false,
): SecretsPlan {
  const plan: SecretsPlan = { set: {}, lines: [] };
  const has = (name: SecretName) => existing?.has(name) ?? false;
  const set = (dryRun ? "would set" : "set") + (existing === null ? " (if missing)" : "");
  if (has("SESSION_SECRET")) plan.lines.push("SESSION_SECRET: set already, kept");
  else {
    plan.set.SESSION_SECRET = randomBytes(32).toString("hex");
    plan.lines.push(`SESSION_SECRET: ${set}, a random one`);
  }
  const provider = [
    { name: "LLM_BASE_URL", value: given.providerUrl, from: "--provider-url", ask: "--provider-url (or LLM_BASE_URL)" },
    { name: "LLM_API_KEY", value: given.providerKey, from: "LLM_API_KEY", ask: "LLM_API_KEY (or type it when asked)" },
  ] as const;
  for (const { name, value, from, ask } of provider) {
    if (has(name)) plan.lines.push(`${name}: set already, kept`);
    else if (value) {
      plan.set[name] = value;
      plan.lines.push(`${name}: ${set}, from ${from}`);
    } else plan.lines.push(`${name}: not set; give ${ask} (until then chat answers 503 provider_not_configured)`);
  }
  return plan;
}

/** The names a dotenv file (.dev.vars) sets, or an empty set when it does not exist. */
export function envFileNames(file: string): Set<string> {
  if (!existsSync(file)) return new Set();
  return new Set(
    readFileSync(file, "utf8")
      .split("\n")
      .map((line) => /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1])
      .filter((name): name is string => !!name),
  );
}

/** `NAME=value` lines for a dotenv file; a value with spaces, quotes or # is double-quoted. */
export function envLines(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${/[\s"'#\\]/.test(v) ? JSON.stringify(v) : v}\n`)
    .join("");
}

/** Reads a secret typed at the terminal without echoing it; null when there is no terminal (CI). */
export async function promptHidden(question: string): Promise<string | null> {
  const input = process.stdin;
  if (!input.isTTY || !process.stdout.isTTY) return null;
  process.stdout.write(question);
  input.setRawMode(true);
  input.resume();
  let typed = "";
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") {
          input.off("data", onData);
          input.setRawMode(false);
          input.pause();
          process.stdout.write("\n");
          return resolve(typed.trim() || null);
        }
        if (ch === "\u0003") process.exit(130);
        typed = ch === "\u007f" ? typed.slice(0, -1) : typed + ch;
      }
    };
    input.on("data", onData);
  });
}
