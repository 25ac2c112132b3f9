// `npm run deploy -- --origin https://www.example.com [...]` (usage: scripts/deploy/options.ts, docs/deploy.md):
// from a clone to a live site in one command. Each step says what it found and what it changed; a second run
// changes only what is missing. --dry-run changes nothing; --local does the same against wrangler dev's storage.
import { createHash, randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { SIGN_IN_LINK_SECONDS, signInLinkKey, signInLinkUrl } from "../worker/console/sign-in-link.ts";
import { deployOptions, USAGE, UsageError, type DeployOptions } from "./deploy/options.ts";
import { planSecrets, promptHidden } from "./deploy/secrets.ts";
import { planSite, siteKeys, type DeployEntry } from "./deploy/site-plan.ts";
import { localTarget, remoteTarget, type Target } from "./deploy/targets.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

function step(n: number, title: string, lines: string[]) {
  process.stdout.write(`[${n}/7] ${title}\n${lines.map((l) => `      ${l}\n`).join("")}`);
}

/** A one-time console sign-in link: its token for the address, its KV entry (the digest, expiring). */
function newSignInLink(siteKey: string): { token: string; entry: DeployEntry } {
  const token = randomBytes(32).toString("base64url");
  const value = JSON.stringify({ site: siteKey, expiresAt: Date.now() + SIGN_IN_LINK_SECONDS * 1000 });
  return { token, entry: { key: signInLinkKey(sha256(token)), value, expiration_ttl: SIGN_IN_LINK_SECONDS } };
}

async function main(opts: DeployOptions) {
  const target: Target = opts.local ? localTarget(opts) : remoteTarget();
  const would = opts.dryRun ? "would " : "";
  process.stdout.write(
    `Parley deploy${opts.local ? " (local)" : ""}${opts.dryRun ? ", dry run: nothing changes" : ""}\n`,
  );

  if (!opts.build) step(1, "Build", ["skipped (--no-build)"]);
  else if (opts.dryRun) step(1, "Build", ["would run npm run build"]);
  else {
    const build = spawnSync("npm", ["run", "build"], { stdio: ["ignore", "inherit", "inherit"] });
    if (build.status !== 0) throw new Error("npm run build failed");
    step(1, "Build", ["ran npm run build"]);
  }

  const account = target.account();
  step(2, opts.local ? "Account" : "Cloudflare account", [account.line]);
  if (!account.ok && !opts.dryRun) throw new Error("Sign in to Cloudflare first: npx wrangler login");

  step(3, "KV, R2 and Durable Objects", target.storage());

  const existingSecrets = target.secretNames();
  const providerUrl = opts.providerUrl;
  let providerKey = process.env.LLM_API_KEY || undefined;
  if (!providerKey && !opts.dryRun && existingSecrets && !existingSecrets.has("LLM_API_KEY"))
    providerKey = (await promptHidden("The provider's API key (LLM_API_KEY; Enter to skip): ")) ?? undefined;
  const secrets = planSecrets(existingSecrets, { providerUrl, providerKey }, opts.dryRun);
  step(4, "Secrets", secrets.lines);

  const deployed = target.deploy(secrets.set, opts.dryRun);
  step(5, opts.local ? "Worker" : "Deploy", deployed.lines);
  const url = opts.url ?? deployed.url ?? "https://parley.<your-subdomain>.workers.dev";

  const existing = target.kvRead(siteKeys(opts.siteKey, opts.origins, opts.agents));
  let adminKey: string | undefined;
  let link: { token: string; entry: DeployEntry } | undefined;
  if (!existing && !opts.dryRun) throw new Error(`Could not read site ${opts.siteKey}'s entries from KV`);
  if (!existing) {
    step(6, `Site ${opts.siteKey}`, [
      `${would}create it for ${opts.origins.join(", ")} with ${opts.agents.join(", ")} if missing ` +
        "(its KV namespace cannot be read before signing in and the first deploy)",
    ]);
  } else {
    const plan = planSite(opts, existing, () => {
      const key = randomBytes(24).toString("base64url");
      return { key, sha256: sha256(key) };
    });
    if (plan.created || opts.signInLink) link = newSignInLink(opts.siteKey);
    const entries = [...plan.entries, ...(link ? [link.entry] : [])];
    if (entries.length && !opts.dryRun) target.kvWrite(entries);
    adminKey = plan.adminKey;
    const made = { done: "made a one-time console sign-in link (24 h)", would: "would make a one-time sign-in link" };
    const changes = [...plan.changes, ...(link ? [made] : [])];
    step(6, `Site ${opts.siteKey}`, [
      ...changes.map((c) => (opts.dryRun ? c.would : c.done)),
      ...(plan.kept.length ? [`found, unchanged: ${plan.kept.join(", ")}`] : []),
      ...(changes.length ? [] : ["nothing to change"]),
    ]);
  }

  const tags = opts.agents.map(
    (a) => `<script src="${url}/parley.js" data-site-key="${opts.siteKey}" data-agent="${a}" async></script>`,
  );
  const signIn = link && (opts.dryRun ? `${url}/console#sign-in=...` : signInLinkUrl(url, link.token));
  step(7, "Your site", [
    `Script tag${tags.length > 1 ? "s (one per agent)" : ""} for the pages of ${opts.origins.join(", ")}:`,
    ...tags.map((t) => `  ${t}`),
    `Console: ${url}/console`,
    signIn
      ? `Owner's sign-in (one time, 24 h): ${signIn}`
      : existing
        ? "Owner's sign-in: the site key and admin key (run again with --sign-in-link for a one-time link)"
        : "Owner's sign-in: a one-time link, made with the site",
    ...(adminKey && !opts.dryRun
      ? [`Admin key (shown once; scripts send it as x-parley-admin-key with ?site=${opts.siteKey}): ${adminKey}`]
      : []),
  ]);
  process.stdout.write(opts.dryRun ? "Dry run: nothing was changed.\n" : "Done.\n");
}

try {
  await main(deployOptions(process.argv.slice(2), process.env));
} catch (err) {
  process.stderr.write(`deploy: ${err instanceof Error ? err.message : String(err)}\n`);
  if (err instanceof UsageError) process.stderr.write(`\n${USAGE}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
}
