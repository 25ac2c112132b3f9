#!/usr/bin/env node
// `npm start`: build the widget, make sure local secrets exist, run the worker with wrangler dev
// (local Durable Objects and KV, no login, no network) serving the demo site at http://127.0.0.1:8787/.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const args = process.argv.slice(2);
const port = process.env.PORT ?? "8787";
const offline = { WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

// Local secrets live in .dev.vars (git-ignored); a random session secret is made on first run.
const vars = existsSync(".dev.vars") ? readFileSync(".dev.vars", "utf8") : "";
if (!/^SESSION_SECRET=/m.test(vars)) {
  writeFileSync(
    ".dev.vars",
    `${vars}${vars && !vars.endsWith("\n") ? "\n" : ""}SESSION_SECRET=${randomBytes(32).toString("hex")}\n`,
  );
  console.log("Wrote a random SESSION_SECRET to .dev.vars");
}

if (!args.includes("--no-build")) {
  const build = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const provider = process.env.LLM_BASE_URL || /^LLM_BASE_URL=\S+/m.test(vars);
const model = provider ? "provider from LLM_BASE_URL" : "offline scripted demo model";
console.log(`\nParley demo: http://127.0.0.1:${port}/  (${model})\n`);
// DEMO_MODE serves the presets, the demo site and (without a provider) the demo model; a deploy never sets it.
const wranglerArgs = ["wrangler", "dev", "-c", "wrangler.toml", "--port", port, "--ip", "127.0.0.1"];
wranglerArgs.push("--var", "DEMO_MODE:1");
// Local workerd has no Durable Object jurisdictions: a site of the EU or FedRAMP gets a local stand-in.
wranglerArgs.push("--var", "JURISDICTION_STAND_IN:1");
for (const name of ["LLM_BASE_URL", "LLM_API_KEY", "TAVILY_API_KEY"]) {
  if (process.env[name]) wranglerArgs.push("--var", `${name}:${process.env[name]}`);
}
// Own process group, so Ctrl-C stops workerd too (killing npx alone leaves it running).
const child = spawn("npx", wranglerArgs, { stdio: "inherit", env: { ...process.env, ...offline }, detached: true });
const stop = () => {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    /* gone */
  }
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => process.exit(code ?? 0));
