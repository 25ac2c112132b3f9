import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import type { SiteConfigInput } from "../../shared/config/agent-config.ts";
import type { DemoScript } from "../../worker/demo/index.ts";
import { demoSite } from "../../worker/demo/index.ts";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./browser.ts";
import { startE2eProvider, type E2eProvider } from "./e2e-provider.ts";
import { OIDC_CLIENT_SECRET, OIDC_CLIENT_SECRET_ENV } from "./oidc-provider.ts";
import { startWorkerd, type Workerd } from "./workerd.ts";

/** What every end-to-end file is given (`inject("e2e")`). */
export interface E2eRun {
  /** The one worker of the run (demo mode, the built dist/public). */
  workerUrl: string;
  /** The one Chromium of the run: `chromium.connect(browserWs)`. */
  browserWs: string;
  /** This run's helper routes: test sites, the provider's gates and what it was asked. */
  controlUrl: string;
  /** The worker's secrets, fresh for each run: no client artifact or response may carry them. */
  secrets: Record<string, string>;
}

declare module "vitest" {
  export interface ProvidedContext {
    e2e: E2eRun;
  }
}

/** What a test asks for when it creates its site (POST /sites). */
export interface SiteRequest {
  /** Site settings over the demo site's. */
  site?: Partial<SiteConfigInput>;
  /** The provider's script for this site's turns; without one, the worker's demo model answers. */
  script?: DemoScript;
  /** The capabilities of the site's models at the fake provider (e.g. vision, reasoning). */
  models?: Record<string, Record<string, unknown>>;
}

/**
 * The end-to-end run's one worker, one browser and one fake provider, started once before any
 * end-to-end file and stopped after the last: the worker is bundled once and served by workerd from
 * wrangler.toml's bindings (state in a temporary folder); Chromium is launched once as a server each
 * file connects to, with a new context per test. Files keep apart by site: each creates its own.
 */
export default async function setup(project: TestProject) {
  if (!existsSync("dist/public/parley-widget.js")) throw new Error("No dist/public: run `npm run build` first");
  const secrets = {
    SESSION_SECRET: "session-secret-" + randomBytes(18).toString("hex"),
    LLM_API_KEY: "sk-test-" + randomBytes(18).toString("hex"),
  };
  const provider = await startE2eProvider(secrets.LLM_API_KEY);
  const [starting, launching] = await Promise.allSettled([
    startWorkerd({
      // The console's single sign-on reads its client secret from a worker secret it names (sso.test.ts).
      vars: { ...secrets, DEMO_MODE: "1", DEMO_CHUNK_MS: "0", [OIDC_CLIENT_SECRET_ENV]: OIDC_CLIENT_SECRET },
      assets: "dist/public",
    }),
    chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }),
  ]);
  if (starting.status === "rejected" || launching.status === "rejected") {
    // What did start is stopped again: no workerd or Chromium is left behind.
    if (starting.status === "fulfilled") await starting.value.stop();
    if (launching.status === "fulfilled") await launching.value.close();
    await provider.close();
    throw starting.status === "rejected" ? starting.reason : (launching as PromiseRejectedResult).reason;
  }
  const worker = starting.value;
  const browser = launching.value;
  const control = createServer((req, res) => {
    route(req, res, worker, provider).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(err));
    });
  });
  await new Promise<void>((r) => control.listen(0, "127.0.0.1", r));
  project.provide("e2e", {
    workerUrl: worker.url,
    browserWs: browser.wsEndpoint(),
    controlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    secrets,
  });
  return async () => {
    control.closeAllConnections();
    await new Promise((r) => control.close(r));
    await browser.close();
    await worker.stop();
    await provider.close();
  };
}

async function route(req: IncomingMessage, res: ServerResponse, worker: Workerd, provider: E2eProvider) {
  const url = new URL(req.url ?? "/", "http://control");
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const parts = url.pathname.split("/").filter(Boolean);
  if (req.method === "POST" && url.pathname === "/sites") {
    const ask = JSON.parse((await readBody(req)) || "{}") as SiteRequest;
    const siteKey = `test-site-${randomUUID()}`;
    const providers = ask.script
      ? [{ id: "fake", baseUrl: provider.baseUrlFor(siteKey), keyEnv: "LLM_API_KEY", models: ask.models ?? {} }]
      : [];
    if (ask.script) provider.setScript(siteKey, ask.script);
    await worker.putConfig(`site:${siteKey}`, { ...demoSite, providers, ...ask.site, siteKey });
    return json(201, { siteKey });
  }
  if (req.method === "GET" && url.pathname === "/requests")
    return json(200, provider.requests(url.searchParams.get("site") ?? ""));
  if (parts[0] === "gates" && parts[1]) {
    const gate = provider.gate(parts[1]);
    if (req.method === "POST" && parts[2] === "release") {
      gate.release();
      return json(200, {});
    }
    if (req.method === "GET" && parts[2] === "held") return json(200, { index: await gate.held.promise });
    if (req.method === "GET" && parts[2] === "ended") return json(200, await gate.ended.promise);
  }
  json(404, { error: `no control route ${req.method} ${url.pathname}` });
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) body += String(chunk);
  return body;
}
