import { createServer, type Server } from "node:http";
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { DEMO_ADMIN_KEY, newPage, useSite } from "../helpers/e2e.ts";
import { axeFindings, signInByKeyboard } from "../helpers/console.ts";
import { CONSOLE_SHOTS } from "../helpers/browser.ts";

/**
 * The console's Webhooks page as an owner uses it, by keyboard: add an endpoint (a receiver on this
 * machine, allowed in demo mode), send a test event, see it delivered and verified with the secret the
 * page shows once (the list then shows only its hint), resend it; axe-core in English and Chinese. On a
 * site of the file's own: its endpoints and deliveries are nobody else's.
 */
const demo = useSite();
let receiver: Server;
let url = "";
const got: Array<{ headers: Record<string, string>; body: string }> = [];
/** Resolves once the receiver has had `n` deliveries. */
const waiting: Array<{ n: number; done: () => void }> = [];
const received = (n: number) => new Promise<void>((done) => (got.length >= n ? done() : waiting.push({ n, done })));

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    got.push({ headers: req.headers as Record<string, string>, body });
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    for (const w of waiting.filter((w) => got.length >= w.n)) w.done();
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
});
afterAll(() => new Promise((r) => receiver?.close(r)));

describe("the console's Webhooks page", () => {
  it("adds an endpoint, sends a test event, shows it delivered and resends it, by keyboard", async () => {
    const { context, page, errors } = await newPage(demo, { bypassCSP: true });
    await signInByKeyboard(page, demo.url, DEMO_ADMIN_KEY, demo.siteKey);
    await page.locator("main h1").waitFor();
    await page.goto(`${demo.url}/console/webhooks`);
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    await page.locator("#hook-url").focus();
    await page.keyboard.type(url);
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Added." }).waitFor();
    // The new endpoint's secret, shown this once; the list shows only its last four characters.
    const secret = await page.getByLabel(/you will not see it again/).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expect(page.locator("article.endpoint code.secret").textContent()).resolves.toBe(
      `whsec_…${secret.slice(-4)}`,
    );
    await page.getByRole("button", { name: "Send a test event" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Test event queued." }).waitFor();
    await received(1);
    // The outbox records the delivery once the receiver's answer is in: the page asks again on each answer.
    const delivered = page.locator("tr", { hasText: "webhook.test" }).filter({ hasText: "Delivered" });
    const deliveries = (r: { url(): string }) => new URL(r.url()).pathname === "/v1/admin/webhook-deliveries";
    await expect
      .poll(async () => {
        await Promise.all([page.waitForResponse(deliveries), page.getByRole("button", { name: "Refresh" }).click()]);
        return delivered.count();
      })
      .toBe(1);
    await expect(delivered.locator("td").nth(2).textContent()).resolves.toBe("1");
    expect(new Webhook(secret).verify(got[0].body, got[0].headers)).toMatchObject({ type: "webhook.test" });
    mkdirSync(CONSOLE_SHOTS, { recursive: true });
    await page.screenshot({ path: `${CONSOLE_SHOTS}/webhooks.png`, fullPage: true });
    expect(await axeFindings(page), "webhooks en").toEqual([]);
    await page.getByRole("button", { name: /^Resend webhook.test/ }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Queued again." }).waitFor();
    await received(2);
    expect(got[1].headers["webhook-id"]).toBe(got[0].headers["webhook-id"]);
    await page.getByLabel("Language").selectOption("zh-CN");
    await page.getByRole("heading", { name: "投递记录" }).waitFor();
    expect(await axeFindings(page), "webhooks zh-CN").toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the demo site's own endpoint and what it delivered on the demo page (demo mode)", async () => {
    const { context, page, errors } = await newPage(demo);
    await page.goto(`${demo.url}/`);
    await page.locator("#demo-hooks").waitFor();
    await expect(page.locator("#demo-hooks-url").textContent()).resolves.toBe(`${demo.url}/v1/demo/webhook-inbox`);
    // A conversation opened on the demo site: its first event reaches the demo's receiver, which verifies it.
    const opened = await fetch(`${demo.url}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: demo.url },
      body: JSON.stringify({ siteKey: "demo-site-key-0001", agentId: "derm-consult" }),
    });
    expect(opened.status).toBe(201);
    await page
      .locator("#demo-hooks-list li", { hasText: 'conversation.started · delivered · 1 attempt(s) · {"verified":' })
      .first()
      .waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
