import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { startCuttableProxy } from "../helpers/cuttable-proxy.ts";
import { useSite } from "../helpers/e2e.ts";
import { GENERIC_REPLY, GENERIC_SCRIPT } from "../helpers/fake-upstream.ts";
import { tokenize } from "../../worker/demo/index.ts";

/**
 * Replies that survive the page: the built widget, the real worker, a fake provider that
 * holds the reply (43 pieces) part way while the page reloads, goes offline or stops it, then lets it go.
 * The text a visitor ends with must be the text of a run nobody interrupted, character for character.
 */
const demo = useSite({ script: GENERIC_SCRIPT });
const PIECES = tokenize(GENERIC_REPLY);
/** Chunks (the role's first) after which the reply's text is past `share` of its length, with a margin. */
function piecesAt(share: number): number {
  let n = 0;
  for (let length = 0; length < (share + 0.1) * GENERIC_REPLY.length; n++) length += PIECES[n].length;
  return n + 1;
}

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);
/** The reply's text as shown (the bubble's markdown, without its time). */
const reply = (page: Page) => q(page, '.msg[data-role="assistant"] .md').last();

async function openPanel(base = demo.url) {
  const context = await demo.newContext({ viewport: { width: 1280, height: 900 } });
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
}

/** Waits until the reply (after the greeting) is on screen and no longer streaming. */
async function turnDone(page: Page) {
  await expect.poll(() => q(page, '.msg[data-role="assistant"] .md').count()).toBe(2);
  await q(page, "button.send.stop").waitFor({ state: "detached" });
  await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
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
  await expect.poll(reached).toBeGreaterThanOrEqual(Math.round(share * whole.length));
}

async function reopen(page: Page) {
  await page.reload();
  await q(page, "button.l").click();
}

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
      const gate = demo.gate(piecesAt(share));
      await send(page, `Tell me about sunscreen (${share}) ${gate.marker}`);
      await reach(page, share, whole);
      const requests = (await demo.requests()).length;
      await reopen(page);
      // The reloaded page shows the reply as far as it came, then the rest as the provider goes on.
      await reach(page, share, whole);
      await gate.release();
      // Streaming again, from the worker's copy: the provider was not asked twice.
      await expect.poll(() => reply(page).textContent()).toBe(whole);
      await turnDone(page);
      expect((await demo.requests()).length).toBe(requests);
      expect((await gate.ended()).aborted).toBe(false);
      // Stored once, complete: a second reload shows the same conversation.
      await reopen(page);
      await expect.poll(() => q(page, '.msg[data-role="assistant"] .md').count()).toBe(2);
      // The markdown chunk loads alongside the restore: the text may show plain for a moment first.
      await expect.poll(() => reply(page).textContent()).toBe(whole);
      expect(await q(page, ".note").count()).toBe(0);
      await page.screenshot({ path: `test-results/e2e-resume-reload-${share * 100}.png` });
      expect(errors).toEqual([]);
      await context.close();
    });

  it("offline mid-reply, then online: the reply goes on where it broke off", async () => {
    const proxy = await startCuttableProxy(demo.url);
    const { context, page, errors, follows } = await openPanel(proxy.url);
    const gate = demo.gate(piecesAt(0.4));
    await send(page, `Tell me about sunscreen (offline) ${gate.marker}`);
    await reach(page, 0.4, whole);
    // The network goes: the streaming response breaks, and new requests fail until it is back.
    await context.setOffline(true);
    proxy.cut();
    await q(page, ".offline").waitFor();
    await page.screenshot({ path: "test-results/e2e-resume-offline.png" });
    await context.setOffline(false);
    await gate.release();
    await expect.poll(() => reply(page).textContent()).toBe(whole);
    await turnDone(page);
    // The response did break, and the rest came through the live channel.
    expect(follows.length).toBeGreaterThan(0);
    expect(await q(page, ".note").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
    await proxy.close();
  });

  it("Stop on a reply followed after a reload ends the provider's request", async () => {
    const { context, page, errors, follows } = await openPanel();
    const gate = demo.gate(piecesAt(0.2));
    await send(page, `Tell me about sunscreen (stop) ${gate.marker}`);
    await reach(page, 0.2, whole);
    await reopen(page);
    // Followed after the reload: the reply, as far as it came, from the live channel.
    await expect.poll(() => follows.length).toBeGreaterThan(0);
    await reach(page, 0.2, whole);
    await q(page, "button.send.stop").click();
    await page.screenshot({ path: "test-results/e2e-resume-stopped.png" });
    await turnDone(page);
    // Ended at the provider while it still held the rest of the reply.
    expect((await gate.ended()).aborted).toBe(true);
    const shown = (await reply(page).textContent()) ?? "";
    expect(shown.length).toBeLessThan(whole.length);
    // Kept as far as it came, marked stopped, as the worker stored it.
    const lastNote = () => q(page, '.msg[data-role="assistant"]').last().locator(".note").textContent();
    await expect.poll(lastNote).toContain("Stopped");
    await reopen(page);
    await expect.poll(lastNote).toContain("Stopped");
    expect(errors).toEqual([]);
    await context.close();
  });
});
