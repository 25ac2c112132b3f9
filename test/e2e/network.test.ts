import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { dermConsultScript } from "../../worker/demo/index.ts";
import { useUpstreamDemo } from "../helpers/e2e.ts";
import type { FaultSpec } from "../helpers/fake-upstream.ts";

/**
 * The widget when the network or the provider fails: offline state that is clear and
 * loses nothing typed, refusals (rate limit with Retry-After, budget) shown kindly, and a reply cut
 * mid-stream kept, marked interrupted, with a retry. Built widget, real worker, fake provider.
 */
const demo = useUpstreamDemo({ apiKey: "k", scripts: { "gpt-4o-mini": dermConsultScript }, chunkMs: 15 });

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);
const RASH = "I have a red itchy rash on my arm";

async function openPanel(locale = "en-US") {
  const context = await demo.browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(demo.dev.url + "/");
  await q(page, "button.l").click();
  await q(page, ".md").first().waitFor();
  return { context, page, errors };
}

async function turnDone(page: Page) {
  await q(page, "button.send.stop").waitFor({ state: "detached", timeout: 30_000 });
}

describe("the network drops", () => {
  it("says it is offline, keeps the draft and a message sent meanwhile, and sends it when back", async () => {
    const { context, page, errors } = await openPanel();
    // A draft survives a reload (sessionStorage) and closing the panel.
    await q(page, "textarea").fill("half a thought");
    await page.reload();
    await q(page, "button.l").click();
    await expect.poll(() => q(page, "textarea").inputValue()).toBe("half a thought");
    await q(page, "textarea").press("Escape");
    await q(page, "button.l").click();
    expect(await q(page, "textarea").inputValue()).toBe("half a thought");

    await context.setOffline(true);
    const banner = q(page, ".offline");
    await expect.poll(() => banner.textContent()).toBe("You're offline — your message is kept");
    expect(await banner.getAttribute("role")).toBe("status");
    // The composer stays usable: typing and sending work, the message waits.
    await q(page, "textarea").fill(RASH);
    expect(await q(page, "textarea").isEnabled()).toBe(true);
    await q(page, "textarea").press("Enter");
    const pending = q(page, '.msg[data-role="queued"]');
    await expect.poll(() => pending.locator(".bubble").textContent()).toBe(RASH);
    expect(await pending.locator(".note").textContent()).toBe("Not sent yet — it goes as soon as you're back online");
    expect(await q(page, "textarea").inputValue()).toBe("");
    expect(await q(page, '.msg[data-role="user"]').count()).toBe(0);
    expect(
      await page.evaluate(() =>
        Object.entries(sessionStorage)
          .filter(([k]) => k.endsWith(":outbox"))
          .map(([, v]) => v),
      ),
    ).toEqual([RASH]);
    await page.waitForTimeout(250);
    await page.screenshot({ path: "test-results/e2e-offline.png" });

    // Back online: the banner goes, the message is sent once, the reply comes.
    const before = demo.upstream.requests.length;
    await context.setOffline(false);
    await banner.waitFor({ state: "detached" });
    await expect.poll(() => q(page, '.msg[data-role="user"] .bubble').allTextContents()).toEqual([RASH]);
    await expect.poll(() => q(page, "article.card").count(), { timeout: 30_000 }).toBe(2);
    await turnDone(page);
    expect(await pending.count()).toBe(0);
    expect(demo.upstream.requests.length).toBeGreaterThan(before);
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.endsWith(":outbox")))).toEqual([]);
    // The worker has it exactly once.
    await page.reload();
    await q(page, "button.l").click();
    await expect.poll(() => q(page, '.msg[data-role="user"] .bubble').allTextContents()).toEqual([RASH]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows a failed request with a retry, and retries by itself when the browser comes back online", async () => {
    const { context, page, errors } = await openPanel();
    // The connection drops under the request (the browser still thinks it is online).
    await page.route("**/v1/chat/completions", (route) => route.abort("internetdisconnected"));
    await q(page, "textarea").fill(RASH);
    await q(page, "textarea").press("Enter");
    const error = q(page, ".error");
    await expect
      .poll(() => error.locator("span").textContent())
      .toBe("We couldn't reach the server. Check your connection and try again.");
    expect(await q(page, '.msg[data-role="user"] .bubble').allTextContents()).toEqual([RASH]);
    // Retry while still failing: the same error, nothing doubled.
    await error.locator("button").click();
    await expect.poll(() => error.count()).toBe(1);
    expect(await q(page, '.msg[data-role="user"]').count()).toBe(1);
    // The network is back: an "online" event retries on its own.
    await page.unroute("**/v1/chat/completions");
    await context.setOffline(true);
    await context.setOffline(false);
    await expect.poll(() => q(page, "article.card").count(), { timeout: 30_000 }).toBe(2);
    expect(await error.count()).toBe(0);
    expect(await q(page, '.msg[data-role="user"]').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("speaks Chinese when offline", async () => {
    const { context, page } = await openPanel("zh-CN");
    await context.setOffline(true);
    await expect.poll(() => q(page, ".offline").textContent()).toBe("您已离线，消息会保留");
    await q(page, "textarea").fill("我手臂上有发红发痒的皮疹");
    await q(page, "textarea").press("Enter");
    await expect.poll(() => q(page, '.msg[data-role="queued"] .note').textContent()).toBe("尚未发送，联网后自动发送");
    await context.close();
  });
});

describe("refusals are shown kindly", () => {
  const refuse = (page: Page, status: number, code: string, headers: Record<string, string> = {}) =>
    page.route("**/v1/chat/completions", (route) =>
      route.fulfill({
        status,
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ error: { code, message: `internal detail for ${code}` } }),
      }),
    );

  it("rate limited: says when to try again (Retry-After); over budget: no pointless retry", async () => {
    const { context, page, errors } = await openPanel();
    await refuse(page, 429, "rate_limited", { "retry-after": "7" });
    await q(page, "textarea").fill(RASH);
    await q(page, "textarea").press("Enter");
    const error = q(page, ".error");
    await expect
      .poll(() => error.locator("span").textContent())
      .toBe(
        "You're sending messages a little fast. Please wait a moment and try again. You can try again in 7\u00a0s.",
      );
    expect(await error.getAttribute("role")).toBe("alert");
    expect(await error.locator("button").textContent()).toBe("Try again");
    expect(await error.textContent()).not.toContain("internal detail");
    await page.waitForTimeout(200);
    await page.screenshot({ path: "test-results/e2e-rate-limited.png" });

    await page.unroute("**/v1/chat/completions");
    await refuse(page, 429, "budget_exceeded");
    await error.locator("button").click();
    await expect
      .poll(() => error.locator("span").textContent())
      .toBe("This conversation has reached its limit. Please start a new one later.");
    expect(await error.locator("button").count()).toBe(0);
    // The visitor's message is still there, and the composer still works.
    expect(await q(page, '.msg[data-role="user"] .bubble').allTextContents()).toEqual([RASH]);
    expect(await q(page, "textarea").isEnabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("in Chinese too", async () => {
    const { context, page } = await openPanel("zh-CN");
    await refuse(page, 429, "rate_limited", { "retry-after": "30" });
    await q(page, "textarea").fill("你好");
    await q(page, "textarea").press("Enter");
    await expect.poll(() => q(page, ".error span").textContent()).toBe("您发送得有点快，请稍后再试。30 秒后可以重试。");
    await context.close();
  });
});

describe("a reply cut mid-stream", () => {
  it("keeps the partial text, marked interrupted, and offers a retry that completes it", async () => {
    const { context, page, errors } = await openPanel();
    // The next chat request's stream is cut after a few words (the socket is destroyed).
    let cut = true;
    demo.upstream.configure({
      fault: (): FaultSpec => (cut ? ((cut = false), { kind: "cut", afterChunks: 8 }) : { kind: "none" }),
    });
    await q(page, "textarea").fill(RASH);
    await q(page, "textarea").press("Enter");
    const error = q(page, ".error");
    await expect
      .poll(() => error.locator("span").textContent(), { timeout: 30_000 })
      .toBe("The reply was cut off before it finished. You can try again.");
    const partial = q(page, '.msg[data-role="assistant"] .bubble').last();
    const text = (await partial.textContent())!;
    expect(text.length).toBeGreaterThan(5);
    expect("Thanks for describing it. A red, itchy rash on the arm").toContain(text.trim());
    expect(await q(page, '.msg[data-role="assistant"] .note').last().textContent()).toBe("Stopped");
    await page.waitForTimeout(200);
    await page.screenshot({ path: "test-results/e2e-cut.png" });

    // The worker kept the fragment, marked interrupted, too.
    await page.reload();
    await q(page, "button.l").click();
    await expect.poll(() => q(page, '.msg[data-role="assistant"] .bubble').last().textContent()).toBe(text);
    const retry = q(page, ".note .link-btn");
    await retry.waitFor();
    // Retry: the whole reply comes, with its cards; the visitor's message is not doubled.
    await retry.click();
    await expect.poll(() => q(page, "article.card").count(), { timeout: 30_000 }).toBe(2);
    await turnDone(page);
    expect(await q(page, '.msg[data-role="user"]').count()).toBe(1);
    expect(await q(page, ".error").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
