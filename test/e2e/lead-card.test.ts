import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { Page } from "playwright-core";
import { resolve } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, useSite } from "../helpers/e2e.ts";
import { LEAD_AGENT, LEAD_AFTER, LEAD_MARK, LEAD_SCRIPT, openLeadPage } from "../helpers/lead-agent.ts";

/**
 * A sales agent's lead card as a visitor meets it (built bundle, local worker, a provider whose model
 * raises the card): the card appears under the conversation, is filled by keyboard, refuses to send
 * without the visitor's own tick, and once sent thanks them; the worker stores it and the site's
 * endpoint (a receiver on this machine) gets a signed `lead.captured`, verified with the endpoint's
 * secret. In English and Chinese, axe-clean. On a site of the file's own: its agent, leads and
 * webhook endpoint are nobody else's.
 */
const demo = useSite({ script: LEAD_SCRIPT });

/** What the site's webhook endpoint received, and a wait for the `n`th delivery. */
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
const waiting: Array<{ n: number; done: () => void }> = [];
const delivered = (n: number) =>
  new Promise<void>((done) => (received.length >= n ? done() : waiting.push({ n, done })));
let receiver: Server;
let secret = "";

beforeAll(async () => {
  const res = await demo.adminFetch("/v1/admin/agents", { method: "POST", body: JSON.stringify(LEAD_AGENT) });
  expect(res.status, await res.clone().text()).toBe(201);
  receiver = createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    received.push({ headers: req.headers, body });
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    for (const w of waiting.filter((w) => received.length >= w.n)) w.done();
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/leads`;
  // The answer that creates the endpoint is the only one that shows its secret whole.
  const { endpoint } = await demo.admin<{ endpoint: { secret: string } }>("POST", "/v1/admin/webhooks", {
    url,
    events: ["lead.captured"],
  });
  secret = endpoint.secret;
});
afterAll(() => new Promise((r) => receiver?.close(r)));

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

async function cardFindings(page: Page): Promise<unknown[]> {
  if (!(await page.evaluate(() => "axe" in window)))
    await page.addScriptTag({ path: resolve("node_modules/axe-core/axe.min.js") });
  return page.evaluate(async () => {
    const res = await (window as any).axe.run(
      { include: [["parley-chat", ".lead-card"]] },
      { resultTypes: ["violations"] },
    );
    return res.violations
      .filter((v: any) => v.impact === "serious" || v.impact === "critical")
      .map((v: any) => ({ id: v.id, targets: v.nodes.map((n: any) => n.target) }));
  });
}

const CASES = [
  { locale: "en-US", email: "ada@example.com", needTick: "Please tick the box", sent: "Thank you." },
  { locale: "zh-CN", email: "li@example.cn", needTick: "请勾选同意", sent: "谢谢。" },
] as const;

describe("the lead card in the chat", () => {
  for (const c of CASES)
    it(`is raised by the agent, sent by keyboard with the visitor's own consent (${c.locale})`, async () => {
      const { context, page, errors } = await newPage(demo, { locale: c.locale, bypassCSP: true });
      await openLeadPage(page, demo.url, demo.siteKey);
      await q(page, "button.l").click();
      await q(page, "textarea").click();
      await page.keyboard.type(`Could someone from sales contact me? ${LEAD_MARK}`);
      await page.keyboard.press("Enter");
      const card = q(page, ".lead-card");
      await card.waitFor();
      expect(await card.getAttribute("data-lead")).toBe("open");
      await expect.poll(() => q(page, ".msg[data-role=assistant] .bubble").last().textContent()).toContain(LEAD_AFTER);
      // The consent box starts unticked: the visitor ticks it themselves.
      const consent = card.locator("input[name=consent]");
      expect(await consent.isChecked()).toBe(false);

      await card.locator("input[name=name]").focus();
      await page.keyboard.type("Ada Lovelace");
      await page.keyboard.press("Tab");
      await page.keyboard.type(c.email);
      await page.keyboard.press("Tab");
      await page.keyboard.type("Analytical Ltd");
      await page.keyboard.press("Tab");
      expect(await consent.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      // Not sent without the tick: the card says why and takes the focus to the box.
      await expect.poll(() => card.locator("[role=alert]").textContent()).toContain(c.needTick);
      expect(await consent.getAttribute("aria-invalid")).toBe("true");
      expect(await consent.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
      await page.screenshot({ path: `test-results/e2e-lead-card-${c.locale}.png` });
      expect(await cardFindings(page)).toEqual([]);
      await page.keyboard.press("Space");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");

      await expect.poll(() => card.getAttribute("data-lead")).toBe("sent");
      expect(await card.locator("[role=status]").textContent()).toBe(
        c.locale === "zh-CN"
          ? `谢谢。团队将通过 ${c.email} 与您联系。`
          : `Thank you. The team will contact you at ${c.email}.`,
      );
      expect(await card.textContent()).toContain(c.sent);
      expect(await cardFindings(page)).toEqual([]);
      // Stored by the worker: a reload shows the card as sent.
      await page.reload();
      await q(page, "button.l").click();
      await expect.poll(() => q(page, ".lead-card").getAttribute("data-lead")).toBe("sent");
      expect(errors).toEqual([]);
      await context.close();
    });

  it("reaches the site's endpoint as a signed lead.captured (two leads, two deliveries)", async () => {
    await delivered(2);
    const events = received.map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>));
    expect(events.every((e) => (e as { type: string }).type === "lead.captured")).toBe(true);
    // Two leads, two events (a delivery the outbox tried again keeps its id).
    expect(new Set(received.map((r) => r.headers["webhook-id"])).size).toBe(2);
    // The model was offered the card it raised, in each language.
    const asked = (await demo.requests()).filter(
      (r) => r.text.includes(LEAD_MARK) && r.tools.includes("offer_lead_card"),
    );
    expect(asked.length).toBeGreaterThanOrEqual(2);
  });
});
