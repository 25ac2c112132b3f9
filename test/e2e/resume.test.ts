import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { startCuttableProxy } from "../helpers/cuttable-proxy.ts";
import { useUpstreamDemo } from "../helpers/e2e.ts";

/**
 * Replies that survive the page: the built widget, the real worker, a fake provider
 * slow enough (43 pieces, 70 ms apart) to reload, go offline or stop halfway through a reply.
 * The text a visitor ends with must be the text of a run nobody interrupted, character for character.
 */
const demo = useUpstreamDemo({ apiKey: "k", chunkMs: 70 });

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);
/** The reply's text as shown (the bubble's markdown, without its time). */
const reply = (page: Page) => q(page, '.msg[data-role="assistant"] .md').last();

async function openPanel(base = demo.dev.url) {
  const context = await demo.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const follows: string[] = [];
  page.on("request", (r: Request) => void (r.url().includes("/live?reply=") && follows.push(r.url())));
  await page.goto(base + "/");
  await q(page, "button.l").click();
  await q(page, "textarea").waitFor();
  return { context, page, errors, follows };
}

async function send(page: Page, text: string) {
  await q(page, "textarea").fill(text);
  await q(page, "textarea").press("Enter");
  await q(page, "button.send.stop").waitFor();
}

async function turnDone(page: Page) {
  await q(page, "button.send.stop").waitFor({ state: "detached", timeout: 30_000 });
}

/** Waits until the reply on screen (not the greeting above it) has reached `share` of the whole reply's text. */
async function reach(page: Page, share: number, whole: string) {
  const shown = async () =>
    (await reply(page)
      .textContent()
      .catch(() => "")) ?? "";
  const reached = async () => {
    const text = await shown();
    return text.startsWith(whole.slice(0, 12)) ? text.length : 0;
  };
  await expect.poll(reached, { timeout: 20_000 }).toBeGreaterThanOrEqual(Math.round(share * whole.length));
}

async function reopen(page: Page) {
  await page.reload();
  await q(page, "button.l").click();
}

const lastRequestAborted = () => demo.upstream.requests.at(-1)?.aborted;

describe("a reply survives the page", () => {
  let whole = "";

  it("an uninterrupted run, for comparison", async () => {
    const { context, page, errors } = await openPanel();
    await send(page, "Tell me about sunscreen");
    await turnDone(page);
    whole = (await reply(page).textContent()) ?? "";
    expect(whole).toContain("Here is a short answer from the fake upstream.");
    expect(whole).toContain("never changes between runs.");
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const share of [0.3, 0.7])
    it(`reloaded at ${share * 100} % of the reply: the page reattaches and ends with the same text`, async () => {
      const { context, page, errors } = await openPanel();
      await send(page, `Tell me about sunscreen (${share})`);
      await reach(page, share, whole);
      const requests = demo.upstream.requests.length;
      await reopen(page);
      // Streaming again, from the worker's copy: the provider was not asked twice.
      await expect.poll(() => reply(page).textContent(), { timeout: 20_000 }).toBe(whole);
      await turnDone(page);
      expect(demo.upstream.requests.length).toBe(requests);
      expect(lastRequestAborted()).toBe(false);
      // Stored once, complete: a second reload shows the same conversation.
      await reopen(page);
      await expect.poll(() => q(page, '.msg[data-role="assistant"] .md').count()).toBe(2);
      expect(await reply(page).textContent()).toBe(whole);
      expect(await q(page, ".note").count()).toBe(0);
      await page.screenshot({ path: `test-results/e2e-resume-reload-${share * 100}.png` });
      expect(errors).toEqual([]);
      await context.close();
    });

  it("offline mid-reply, then online: the reply goes on where it broke off", async () => {
    const proxy = await startCuttableProxy(demo.dev.url);
    const { context, page, errors, follows } = await openPanel(proxy.url);
    await send(page, "Tell me about sunscreen (offline)");
    await reach(page, 0.4, whole);
    // The network goes: the streaming response breaks, and new requests fail until it is back.
    await context.setOffline(true);
    proxy.cut();
    await page.waitForTimeout(800);
    await page.screenshot({ path: "test-results/e2e-resume-offline.png" });
    await context.setOffline(false);
    await expect.poll(() => reply(page).textContent(), { timeout: 20_000 }).toBe(whole);
    await turnDone(page);
    // The response did break, and the rest came through the live channel.
    expect(follows.length).toBeGreaterThan(0);
    expect(await q(page, ".note").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
    await proxy.close();
  });

  it("Stop on a reply followed after a reload ends the provider's request", async () => {
    // Slower still: the reload must be done well before the reply is (a loaded machine reloads slowly).
    demo.upstream.configure({ chunkMs: 250 });
    const { context, page, errors, follows } = await openPanel();
    await send(page, "Tell me about sunscreen (stop)");
    await reach(page, 0.2, whole);
    await reopen(page);
    await q(page, "button.send.stop").click();
    await page.screenshot({ path: "test-results/e2e-resume-stopped.png" });
    await turnDone(page);
    expect(follows.length).toBeGreaterThan(0);
    await expect.poll(lastRequestAborted, { timeout: 10_000 }).toBe(true);
    const shown = (await reply(page).textContent()) ?? "";
    expect(shown.length).toBeLessThan(whole.length);
    // Kept as far as it came, marked stopped, as the worker stored it.
    const lastNote = () => q(page, '.msg[data-role="assistant"]').last().locator(".note").textContent();
    await expect.poll(lastNote).toContain("Stopped");
    await reopen(page);
    await expect.poll(lastNote).toContain("Stopped");
    expect(errors).toEqual([]);
    await context.close();
    demo.upstream.configure({ chunkMs: 70 });
  });
});
