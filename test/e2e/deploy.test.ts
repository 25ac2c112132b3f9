import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dermConsultScript } from "../../worker/demo/index.ts";
import { newPage } from "../helpers/e2e.ts";
import { startFakeUpstream, type FakeUpstream } from "../helpers/fake-upstream.ts";
import { serveStatic, type StaticPage, type StaticServer } from "../helpers/static-server.ts";
import { OFFLINE_ENV, startWranglerDev, type WranglerDev } from "../helpers/wrangler-dev.ts";

/**
 * `npm run deploy` as a new site owner runs it, without a Cloudflare account: a dry run changes
 * nothing; `--local` sets the site up in wrangler dev's storage and a second run changes nothing;
 * then, with `wrangler dev` serving that storage as a deploy would (no demo mode), the printed console
 * link signs the owner in once, the printed script tag's chat answers from the owner's page, and the
 * demo is not there. The file is about wrangler dev's own storage, so it runs its own `wrangler dev`
 * (and the run's browser).
 */
const tmp = mkdtempSync(join(tmpdir(), "parley-deploy-e2e-"));
const state = join(tmp, "state");
const devVars = join(tmp, ".dev.vars");
const pages: Record<string, StaticPage> = {};
let upstream: FakeUpstream;
let host: StaticServer;
let dev: WranglerDev | undefined;
let browser: Browser | undefined;

function deploy(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync("npm", ["run", "--silent", "deploy", "--", ...args, "--no-build"], {
    encoding: "utf8",
    env: { ...process.env, ...OFFLINE_ENV, npm_config_update_notifier: "false", ...env },
    timeout: 120_000,
  });
  expect(run.status, run.stderr + run.stdout).toBe(0);
  return run.stdout;
}

const localArgs = () => [
  "--local",
  ...["--persist-to", state, "--dev-vars", devVars],
  ...["--origin", host.url, "--agent", "derm-consult", "--provider-url", upstream.url],
];

/** The dotenv file the deploy wrote, as `--var`s for wrangler dev. */
const varsOf = (file: string) =>
  Object.fromEntries(
    readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );

beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: "sk-owner", scripts: { "gpt-4o-mini": dermConsultScript } });
  host = await serveStatic({ pages });
});

afterAll(async () => {
  await browser?.close();
  await dev?.stop();
  await host?.close();
  await upstream?.close();
  rmSync(tmp, { recursive: true, force: true });
});

let printed = "";

describe("npm run deploy", () => {
  it("--dry-run prints every step and changes nothing, against Cloudflare and locally", () => {
    // No Cloudflare credentials in this home: the steps that need the account say so.
    const home = join(tmp, "home");
    const remote = deploy(["--dry-run", "--origin", "https://www.clinic.example", "--agent", "derm-consult"], {
      HOME: home,
    });
    for (let n = 1; n <= 7; n++) expect(remote).toContain(`[${n}/7]`);
    expect(remote).toMatch(/not signed in: run `npx wrangler login`/);
    expect(remote).toMatch(/would upload the worker \([\d.]+ KiB, gzip [\d.]+ KiB\)/);
    expect(remote).toContain('data-site-key="clinic-example" data-agent="derm-consult"');
    expect(remote).toContain("Dry run: nothing was changed.");

    const local = deploy(["--dry-run", ...localArgs()], { LLM_API_KEY: "sk-owner" });
    expect(local).toMatch(/would create site 127-0-0-1 for http:\/\/127\.0\.0\.1:\d+/);
    expect(local).toContain("would install the derm-consult template");
    expect(local).toContain("SESSION_SECRET: would set, a random one");
    expect(existsSync(state)).toBe(false);
    expect(existsSync(devVars)).toBe(false);
  });

  it("--local sets up the site, its secrets and a one-time sign-in link; run again, it changes nothing", () => {
    printed = deploy(localArgs(), { LLM_API_KEY: "sk-owner" });
    expect(printed).toContain("created site 127-0-0-1");
    expect(printed).toContain("installed the derm-consult template");
    expect(printed).toMatch(/#sign-in=[\w-]{43}/);
    expect(Object.keys(varsOf(devVars))).toEqual(["SESSION_SECRET", "LLM_BASE_URL", "LLM_API_KEY"]);

    const vars = readFileSync(devVars, "utf8");
    const again = deploy(localArgs(), { LLM_API_KEY: "sk-someone-else" });
    expect(again).toContain("nothing to change");
    expect(again).toMatch(/SESSION_SECRET: set already, kept/);
    expect(again).not.toContain("#sign-in=");
    expect(again).not.toContain("Admin key");
    expect(readFileSync(devVars, "utf8")).toBe(vars);
  });

  it("serves the owner's site: the console link signs in once, the script tag's chat answers, no demo", async () => {
    dev = await startWranglerDev({ demo: false, state, vars: varsOf(devVars) });
    browser = await chromium.connect(inject("e2e").browserWs);
    // The printed addresses name the worker's default local address; this one listens where it could.
    const link = /(http:\/\/127\.0\.0\.1:8787)(\/console#sign-in=[\w-]+)/.exec(printed)!;
    const owner = await newPage(browser);
    await owner.page.goto(dev.url + link[2]);
    await expect
      .poll(() =>
        owner.page
          .locator(".top code")
          .textContent()
          .catch(() => null),
      )
      .toBe("127-0-0-1");
    // The token left the address (and so the history) at once.
    expect(owner.page.url()).toMatch(new RegExp(`^${dev.url}/console[^#]*$`));
    const second = await newPage(browser);
    await second.page.goto(dev.url + link[2]);
    await second.page.locator("#sign-in-link-error").waitFor();
    expect(await second.page.locator("#site-key").isVisible()).toBe(true);
    // The link was the owner's: the admin key's form is open, not folded away as for the team.
    expect(await second.page.locator("#admin-key").isVisible()).toBe(true);

    const tag = /<script src="http:\/\/127\.0\.0\.1:8787\/parley\.js"[^>]*><\/script>/.exec(printed)![0];
    pages["/"] = `<!doctype html><html lang="en"><head><title>Clinic</title></head><body><h1>Clinic</h1>${tag.replace(
      link[1],
      dev.url,
    )}</body></html>`;
    const visitor = await newPage(browser);
    await visitor.page.goto(host.url + "/");
    await visitor.page.locator("parley-chat button.l").click();
    await visitor.page.locator("parley-chat textarea").fill("I have a red itchy rash on my arm");
    await visitor.page.locator("parley-chat textarea").press("Enter");
    await visitor.page
      .locator('parley-chat .msg[data-role="assistant"]', { hasText: "contact dermatitis" })
      .first()
      .waitFor();
    expect(upstream.requests.length).toBeGreaterThan(0);
    expect([...owner.errors, ...second.errors, ...visitor.errors]).toEqual([]);

    expect((await fetch(`${dev.url}/`)).status).toBe(404);
    const demoSite = await fetch(`${dev.url}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: host.url },
      body: JSON.stringify({ siteKey: "demo-site-key-0001", agentId: "derm-consult" }),
    });
    expect(demoSite.status).toBe(403);
    expect(await (await fetch(`${dev.url}/v1/health`)).json()).toEqual({ ok: true, demo: false });
  });
});
