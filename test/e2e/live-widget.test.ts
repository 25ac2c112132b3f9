import type { BrowserContext, Page, WebSocketRoute } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useUpstreamDemo } from "../helpers/e2e.ts";

/**
 * The widget's live channel: two tabs of one session (one browser context, so one stored
 * session) against the real worker and a fake provider slow enough (43 pieces, 70 ms apart) to watch
 * a reply stream in the other tab, drop its socket, block WebSockets, stop it from there.
 */
const demo = useUpstreamDemo({ apiKey: "k", chunkMs: 70 });

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);
const replies = (page: Page) => q(page, '.msg[data-role="assistant"] .md');
const lastReply = (page: Page) => replies(page).last();
const text = async (page: Page) =>
  (await lastReply(page)
    .textContent()
    .catch(() => "")) ?? "";

interface Tab {
  page: Page;
  errors: string[];
  /** The live channel's WebSocket URLs this tab opened, and its SSE fallback requests. */
  sockets: string[];
  sse: string[];
  /** The ids of the replies whose text (`r` frames) came in on this tab's sockets. */
  texts: Set<string>;
}

async function tab(context: BrowserContext, before?: (page: Page) => Promise<void>): Promise<Tab> {
  const page = await context.newPage();
  const t: Tab = { page, errors: [], sockets: [], sse: [], texts: new Set() };
  page.on("pageerror", (e) => t.errors.push(String(e)));
  page.on("websocket", (ws) => {
    t.sockets.push(ws.url());
    ws.on("framereceived", ({ payload }) => {
      const f = JSON.parse(String(payload)) as { t: string; id?: string };
      if (f.t === "r") t.texts.add(f.id!);
    });
  });
  page.on("request", (r) => void (r.url().includes("/live?after=") && t.sse.push(r.url())));
  await before?.(page);
  await page.goto(demo.dev.url + "/");
  await q(page, "button.l").click();
  await q(page, "textarea").waitFor();
  return t;
}

async function send(page: Page, message: string) {
  await q(page, "textarea").fill(message);
  await q(page, "textarea").press("Enter");
  await q(page, "button.send.stop").waitFor();
}

const turnDone = (page: Page) => q(page, "button.send.stop").waitFor({ state: "detached", timeout: 30_000 });

/** A first exchange in tab A, so the session exists (stored) and A's live channel is up. */
async function twoTabs(blockB?: (page: Page) => Promise<void>) {
  const context = await demo.browser.newContext({ viewport: { width: 900, height: 800 }, locale: "en-US" });
  const a = await tab(context);
  await send(a.page, "Tell me about sunscreen (first)");
  await turnDone(a.page);
  const whole = await text(a.page);
  expect(whole).toContain("never changes between runs.");
  const b = await tab(context, blockB);
  await expect.poll(() => replies(b.page).count()).toBe(2);
  return { context, a, b, whole };
}

describe("the widget's live channel", () => {
  it("a second tab sees the other tab's message and its reply as it streams, and the same final text", async () => {
    const { context, a, b, whole } = await twoTabs();
    await expect.poll(() => a.sockets.length).toBeGreaterThan(0);
    await expect.poll(() => b.sockets.length).toBeGreaterThan(0);
    expect(b.sockets[0]).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/sessions\/[^/]+\/live$/);
    await send(a.page, "Tell me about sunscreen (two tabs)");
    // B shows A's message, then the reply while A's is still streaming: partial, marked streaming,
    // with Stop in B's composer too.
    await q(b.page, '.msg[data-role="user"]').getByText("(two tabs)").waitFor();
    await q(b.page, '[data-streaming="true"]').waitFor({ timeout: 10_000 });
    await q(b.page, "button.send.stop").waitFor();
    const partial = await text(b.page);
    expect(whole.startsWith(partial.slice(0, 20))).toBe(true);
    expect(partial.length).toBeLessThan(whole.length);
    await b.page.screenshot({ path: "test-results/e2e-live-second-tab-streaming.png" });
    await turnDone(a.page);
    await expect.poll(() => text(b.page), { timeout: 20_000 }).toBe(whole);
    await turnDone(b.page);
    expect(await replies(b.page).count()).toBe(3);
    expect(await q(b.page, '[data-streaming="true"]').count()).toBe(0);
    // And back: B's message and reply reach A.
    await send(b.page, "Tell me about sunscreen (from B)");
    await q(a.page, '.msg[data-role="user"]').getByText("(from B)").waitFor();
    await turnDone(b.page);
    await expect.poll(() => text(a.page), { timeout: 20_000 }).toBe(whole);
    await turnDone(a.page);
    expect(await replies(a.page).count()).toBe(4);
    expect(await q(a.page, ".msg").count()).toBe(await q(b.page, ".msg").count());
    // Each tab's socket carried the other's reply, never its own (its chat response has those bytes).
    expect(a.texts.size).toBe(1);
    expect(b.texts.size).toBe(1);
    expect([...a.texts]).not.toEqual([...b.texts]);
    expect(a.sse).toEqual([]);
    expect([...a.errors, ...b.errors]).toEqual([]);
    await context.close();
  });

  it("Stop in the second tab ends the reply streaming from the first, at the provider", async () => {
    demo.upstream.configure({ chunkMs: 200 });
    const { context, a, b, whole } = await twoTabs();
    await expect.poll(() => b.sockets.length).toBeGreaterThan(0);
    await send(a.page, "Tell me about sunscreen (stop from B)");
    await q(b.page, '[data-streaming="true"]').waitFor({ timeout: 10_000 });
    await q(b.page, "button.send.stop").click();
    await turnDone(a.page);
    await turnDone(b.page);
    await expect.poll(() => demo.upstream.requests.at(-1)?.aborted, { timeout: 10_000 }).toBe(true);
    const note = (p: Page) => q(p, '.msg[data-role="assistant"]').last().locator(".note").textContent();
    await expect.poll(() => note(a.page)).toContain("Stopped");
    await expect.poll(() => note(b.page)).toContain("Stopped");
    expect((await text(a.page)).length).toBeLessThan(whole.length);
    await expect.poll(() => text(b.page)).toBe(await text(a.page));
    await b.page.screenshot({ path: "test-results/e2e-live-stopped-from-second-tab.png" });
    expect([...a.errors, ...b.errors]).toEqual([]);
    await context.close();
    demo.upstream.configure({ chunkMs: 70 });
  });

  it("where WebSockets are blocked, the SSE fallback delivers the other tab's reply", async () => {
    const blocked: string[] = [];
    const { context, a, b, whole } = await twoTabs((page) =>
      page.routeWebSocket(/\/live$/, (ws) => {
        blocked.push(ws.url());
        return ws.close({ code: 1008, reason: "blocked by a proxy" });
      }),
    );
    await expect.poll(() => b.sse.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(blocked.length).toBeGreaterThanOrEqual(2);
    await send(a.page, "Tell me about sunscreen (blocked)");
    await q(b.page, '.msg[data-role="user"]').getByText("(blocked)").waitFor();
    await q(b.page, '[data-streaming="true"]').waitFor({ timeout: 10_000 });
    await turnDone(a.page);
    await expect.poll(() => text(b.page), { timeout: 20_000 }).toBe(whole);
    await turnDone(b.page);
    expect(await replies(b.page).count()).toBe(3);
    expect([...a.errors, ...b.errors]).toEqual([]);
    await context.close();
  });

  it("a socket dropped mid-reply reconnects, and the text ends as the uninterrupted one, nothing doubled", async () => {
    let route: WebSocketRoute | null = null;
    const { context, a, b, whole } = await twoTabs((page) =>
      page.routeWebSocket(/\/live$/, (ws) => {
        route = ws;
        ws.connectToServer();
      }),
    );
    await expect.poll(() => b.sockets.length).toBeGreaterThan(0);
    await send(a.page, "Tell me about sunscreen (dropped)");
    await q(b.page, '[data-streaming="true"]').waitFor({ timeout: 10_000 });
    await expect.poll(async () => (await text(b.page)).length).toBeGreaterThan(whole.length * 0.3);
    const sockets = b.sockets.length;
    await route!.close({ code: 4000, reason: "dropped" });
    await expect.poll(() => b.sockets.length, { timeout: 10_000 }).toBeGreaterThan(sockets);
    await turnDone(a.page);
    await expect.poll(() => text(b.page), { timeout: 20_000 }).toBe(whole);
    await turnDone(b.page);
    expect(await replies(b.page).count()).toBe(3);
    expect(b.sse).toEqual([]);
    expect([...a.errors, ...b.errors]).toEqual([]);
    await context.close();
  });
});
