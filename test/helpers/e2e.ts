import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { DEMO_ADMIN_KEY, demoSite, signDemoIdentity } from "../../worker/demo/index.ts";
import type { SeenRequest } from "./e2e-provider.ts";
import type { SiteRequest } from "./e2e-setup.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

type ContextOptions = Parameters<Browser["newContext"]>[0];
/** Desktop size, English, unless a test says otherwise. */
const CONTEXT_DEFAULTS = { viewport: { width: 1280, height: 800 }, locale: "en-US" } as const;

/** A reply the fake provider holds part way until the test releases it (see e2e-provider.ts). */
export interface ProviderGate {
  /** Put this in the visitor's message: the streamed reply waits after `afterChunks` chunks. */
  marker: string;
  /** Resolves once the reply is waiting at the gate. */
  held(): Promise<void>;
  release(): Promise<void>;
  /** Resolves when the held reply's response ended (`aborted`: the worker went away before the end). */
  ended(): Promise<SeenRequest>;
}

export interface Demo {
  /** The run's one worker (demo mode, the built widget and demo pages). */
  url: string;
  browser: Browser;
  /** This file's own site: the demo site's settings under a fresh key, with the same admin key. */
  siteKey: string;
  /** A browser context whose demo pages embed this file's site instead of the demo site. */
  newContext(opts?: ContextOptions): Promise<BrowserContext>;
  /** What the fake provider was asked for this site, in order. */
  requests(): Promise<SeenRequest[]>;
  /** A fresh gate; `afterChunks` chunks of the reply are sent before it waits (default 2). */
  gate(afterChunks?: number): ProviderGate;
  /** An admin route of this site with the demo admin key (or `key`), from a client address of this file's own. */
  admin<T = any>(method: string, path: string, body?: unknown, key?: string): Promise<T>;
  /**
   * The client address of this file's admin calls (`cf-connecting-ip`): the worker's per-address admin
   * limit is then this file's own, not shared with the rest of the run.
   */
  ip: string;
  /** The same request, answered as it came (for a test that expects a refusal). */
  adminFetch(path: string, init?: RequestInit): Promise<Response>;
}

/** The demo site's admin key (published for local runs only); test sites keep its digest. */
export { DEMO_ADMIN_KEY };

/**
 * The end-to-end setup of a file: the run's worker and Chromium (test/helpers/e2e-setup.ts) and a
 * site of the file's own, created before its tests. With a `script`, the site's turns go to the
 * run's fake provider, which answers from it; without one, to the worker's demo model.
 */
export function useSite(ask: SiteRequest = {}): Demo {
  return useRun(ask);
}

/**
 * The run's worker and Chromium on the demo site itself, for a file that changes nothing there and
 * needs what only the demo site has (the sales page's signed-in rep and their customers' profiles, the
 * demo calendar).
 */
export function useDemoSite(): Demo {
  return useRun(undefined);
}

function useRun(ask: SiteRequest | undefined): Demo {
  const run = inject("e2e");
  // An address of the documentation range, random enough that no two files of a run share one.
  const ip = `2001:db8::${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}`;
  const control = async (path: string, init?: RequestInit) => {
    const res = await fetch(run.controlUrl + path, init);
    if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const demo: Demo = {
    url: run.workerUrl,
    browser: undefined as unknown as Browser,
    siteKey: "",
    ip,
    newContext: (opts) =>
      ask ? siteContext(demo.browser, demo.siteKey, opts) : demo.browser.newContext({ ...CONTEXT_DEFAULTS, ...opts }),
    requests: () => control(`/requests?site=${demo.siteKey}`),
    gate(afterChunks) {
      const name = `g${randomUUID().slice(0, 8)}`;
      return {
        marker: `[hold:${name}${afterChunks === undefined ? "" : `@${afterChunks}`}]`,
        held: () => control(`/gates/${name}/held`),
        release: () => control(`/gates/${name}/release`, { method: "POST" }),
        ended: () => control(`/gates/${name}/ended`),
      };
    },
    adminFetch(path, init = {}) {
      const sep = path.includes("?") ? "&" : "?";
      const headers = new Headers(init.headers);
      headers.set("content-type", "application/json");
      headers.set("cf-connecting-ip", demo.ip);
      if (!headers.has("x-parley-admin-key")) headers.set("x-parley-admin-key", DEMO_ADMIN_KEY);
      return fetch(`${run.workerUrl}${path}${sep}site=${demo.siteKey}`, { ...init, headers });
    },
    async admin(method, path, body, key = DEMO_ADMIN_KEY) {
      const res = await demo.adminFetch(path, {
        method,
        headers: { "x-parley-admin-key": key },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.status === 204 ? undefined : res.json();
    },
  };
  beforeAll(async () => {
    mkdirSync("test-results", { recursive: true });
    const [browser, site] = await Promise.all([
      chromium.connect(run.browserWs),
      ask ? control("/sites", { method: "POST", body: JSON.stringify(ask) }) : { siteKey: demoSite.siteKey },
    ]);
    demo.browser = browser;
    demo.siteKey = (site as { siteKey: string }).siteKey;
  });
  afterAll(async () => {
    await demo.browser?.close();
  });
  return demo;
}

/**
 * A context whose pages (`/`, `*.html` on loopback: the worker's demo pages, a test's own host pages)
 * name `siteKey` wherever they name the demo site, and carry the sales page's rep signed in for that
 * site (as its backend would sign them): the page, its CSP and everything else as served.
 */
async function siteContext(browser: Browser, siteKey: string, opts: ContextOptions = {}) {
  const context = await browser.newContext({ ...CONTEXT_DEFAULTS, ...opts });
  const identities = new Map<string, string>();
  await context.route(
    (url) =>
      (url.hostname === "127.0.0.1" || url.hostname === "localhost") &&
      (url.pathname === "/" || url.pathname.endsWith(".html")),
    async (route) => {
      const response = await route.fetch();
      let body = (await response.text()).replaceAll(demoSite.siteKey, siteKey);
      const signed = /data-identity="([\w-]+)\.([\w-]+)\.[\w-]+"/.exec(body);
      if (signed) {
        const { sub } = JSON.parse(Buffer.from(signed[2], "base64url").toString()) as { sub: string };
        // One token per rep for the context's life, as a backend keeps its signed-in user's.
        if (!identities.has(sub)) identities.set(sub, await signDemoIdentity(sub, siteKey));
        body = body.replace(signed[0], `data-identity="${identities.get(sub)}"`);
      }
      await route.fulfill({ response, body });
    },
  );
  return context;
}

export interface WranglerDemo {
  dev: WranglerDev;
  browser: Browser;
}

/**
 * For the files about `wrangler dev` itself (what `npm start` runs): a `wrangler dev` of the file's
 * own, and the run's Chromium.
 */
export function useWranglerDev(opts: Parameters<typeof startWranglerDev>[0] = {}): WranglerDemo {
  const demo = {} as WranglerDemo;
  beforeAll(async () => {
    mkdirSync("test-results", { recursive: true });
    [demo.dev, demo.browser] = await Promise.all([startWranglerDev(opts), chromium.connect(inject("e2e").browserWs)]);
  });
  afterAll(async () => {
    await demo.browser?.close();
    await demo.dev?.stop();
  });
  return demo;
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page: a test ends by expecting none. */
  errors: string[];
}

/**
 * A fresh context (the file's site, or any browser's; desktop size, English unless told otherwise) and page
 * that records page errors.
 */
export async function newPage(demo: Pick<Demo, "newContext">, opts: ContextOptions = {}): Promise<TestPage> {
  const context = await demo.newContext({ ...CONTEXT_DEFAULTS, ...opts });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  return { context, page, errors };
}
