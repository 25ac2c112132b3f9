import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, useDemo } from "../helpers/e2e.ts";
import { axeFindings, signInByKeyboard } from "../helpers/console.ts";
import { DEMO_ADMIN_KEY } from "../../worker/demo/index.ts";

/**
 * Takeover with two browser contexts: staff turn it on in Setup and keep the Live page
 * open; a visitor on the clinic page (the built widget) talks to the agent, then asks for a person;
 * staff see the conversation queued with its waiting time, open it and join; messages go both ways
 * live; staff hand back and the agent answers the visitor again. Both sides are clicked and typed:
 * the visitor in the widget ("Talk to a person", the composer), staff in the console.
 */
const demo = useDemo();
const w = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);
const SESSION_KEY = "parley:session:demo-site-key-0001:derm-consult";

/** A call of the session's API from the visitor's page, with the widget's own session token. */
async function asVisitor(page: Page, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  return page.evaluate(
    async ([key, path, body]) => {
      const s = JSON.parse(localStorage.getItem(key as string)!);
      const res = await fetch((path as string).replace(":id", s.sessionId), {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: await res.json().catch(() => null) };
    },
    [SESSION_KEY, path, body] as const,
  );
}

/** The visitor page's own live channel: the frames it receives, kept on the page for the test to read. */
/**
 * The owner signs in with the site's admin key (named "Owner": a takeover shows the signed-in account's
 * name, none typed), turns takeover on in Setup, and waits on the Live page (present for visitors).
 */
async function staffOnLive() {
  const staff = await newPage(demo.browser);
  const sp = staff.page;
  await signInByKeyboard(sp, demo.dev.url, DEMO_ADMIN_KEY);
  await sp.getByRole("link", { name: "Setup" }).click();
  await sp.getByLabel("Visitors may ask for a person; staff answer from the Live page").check();
  await sp.getByRole("button", { name: "Save settings" }).click();
  await sp.getByRole("status").filter({ hasText: "Saved." }).waitFor();
  await sp.getByRole("link", { name: "Live" }).click();
  await sp.getByText("Visitors see you as Owner when you join.").waitFor();
  await sp.getByRole("status").filter({ hasText: "You are available" }).waitFor({ timeout: 15_000 });
  return staff;
}

/** A visitor on the clinic page with the widget's panel open. */
async function visitorWithPanel() {
  const visitor = await newPage(demo.browser);
  await visitor.page.goto(demo.dev.url + "/");
  await w(visitor.page, "button.l").click();
  return visitor;
}

async function listen(page: Page) {
  await page.evaluate((key) => {
    const s = JSON.parse(localStorage.getItem(key)!);
    const ws = new WebSocket(`ws://${location.host}/v1/sessions/${s.sessionId}/live`, [
      "parley.v1",
      `bearer.${s.token}`,
    ]);
    (window as any).__frames = [];
    ws.onopen = () => ws.send(JSON.stringify({ t: "attach", after: 0 }));
    ws.onmessage = (m) => (window as any).__frames.push(JSON.parse(m.data));
  }, SESSION_KEY);
}
const staffMessagesSeen = (page: Page) =>
  page.evaluate(() =>
    ((window as any).__frames as any[])
      .filter((f) => f.t === "e" && f.event.type === "message.appended" && f.event.data.message.author)
      .map((f) => `${f.event.data.message.author.name}: ${f.event.data.message.content}`),
  );

describe("a person takes a conversation over", () => {
  it(
    "queues the visitor for staff, who join, write live both " + "ways and hand back; the agent answers again",
    async () => {
      const staff = await staffOnLive();
      const sp = staff.page;

      const visitor = await visitorWithPanel();
      const vp = visitor.page;
      await w(vp, "textarea.input").first().click();
      await vp.keyboard.type("I have a red itchy rash on my arm");
      await vp.keyboard.press("Enter");
      await expect.poll(() => w(vp, "article.card").count(), { timeout: 30_000 }).toBe(2);
      await expect.poll(() => w(vp, "button.send.stop").count(), { timeout: 30_000 }).toBe(0);
      const repliesBefore = await w(vp, ".msg[data-role=assistant]").count();
      await listen(vp);
      // The visitor asks for a person in the widget: the panel says they wait, with the time.
      await w(vp, "[data-action=ask-person]").click();
      await w(vp, ".takeover[data-takeover=queued]").waitFor({ timeout: 10_000 });

      // Staff: queued, with its waiting time counting up; open it and join.
      const row = sp.locator("table.live-queue tbody tr").filter({ hasText: "I have a red itchy rash on my arm" });
      await row.waitFor({ timeout: 15_000 });
      await expect.poll(() => row.locator("td.waiting").textContent()).toMatch(/^0:0[1-9]|^0:[1-5]\d/);
      expect(await row.textContent()).toContain("visitor");
      expect(await sp.title()).toMatch(/^\(1\) /);
      await row.getByRole("link").click();
      await sp.getByRole("heading", { name: "Live conversation" }).waitFor();
      await sp.getByRole("button", { name: "Join as Owner" }).click();
      await sp.getByRole("status").filter({ hasText: "Owner handles this conversation" }).waitFor();
      await w(vp, ".handoff[data-handoff=joined]").filter({ hasText: "Owner" }).waitFor({ timeout: 10_000 });

      // While Mei handles it, the model gets no turn; the visitor's message goes to Mei, live.
      const refused = await asVisitor(vp, "/v1/chat/completions", {
        stream: true,
        messages: [{ id: "x1", role: "user", content: "hello?" }],
      });
      expect(refused.status).toBe(409);
      expect(refused.json.error.code).toBe("taken_over");
      await w(vp, "textarea.input").first().click();
      await vp.keyboard.type("Can I come on Friday?");
      await vp.keyboard.press("Enter");
      await sp.locator("ol.transcript li").filter({ hasText: "Can I come on Friday?" }).waitFor({ timeout: 10_000 });

      // Mei writes by keyboard (Enter sends); the visitor's page receives it live.
      await sp.getByLabel(/Message to the visitor/).click();
      await sp.keyboard.type("Hi, I'm Mei from the clinic. Friday at 10:00 works.");
      await sp.keyboard.press("Enter");
      await expect
        .poll(() => staffMessagesSeen(vp), { timeout: 10_000 })
        .toEqual(["Owner: Hi, I'm Mei from the clinic. Friday at 10:00 works."]);
      await sp.locator("ol.transcript li").filter({ hasText: "Owner (staff)" }).waitFor();
      await w(vp, ".msg[data-role=person]").filter({ hasText: "Friday at 10:00 works." }).waitFor({ timeout: 10_000 });
      await vp.screenshot({ path: "test-results/takeover-visitor-with-person.png" });
      await sp.screenshot({ path: "test-results/takeover-staff.png", fullPage: true });

      await sp.getByRole("button", { name: "Hand back to the agent" }).click();
      await sp.getByRole("status").filter({ hasText: "The agent answers this conversation." }).waitFor();

      await w(vp, ".handoff[data-handoff=back]").waitFor({ timeout: 10_000 });
      // The agent answers again, in the widget.
      await w(vp, "textarea.input").first().click();
      await vp.keyboard.type("Thank you. What should I put on the rash until then?");
      await vp.keyboard.press("Enter");
      await expect
        .poll(() => w(vp, ".msg[data-role=assistant]").count(), { timeout: 30_000 })
        .toBeGreaterThan(repliesBefore);
      await expect.poll(() => w(vp, "button.send.stop").count(), { timeout: 30_000 }).toBe(0);
      await vp.screenshot({ path: "test-results/takeover-visitor.png" });
      const state = (await asVisitor(vp, "/v1/sessions/:id")).json.state;
      expect(state.handler).toEqual({ kind: "agent" });
      expect(state.messages.filter((m: any) => m.author).map((m: any) => m.author.name)).toEqual(["Owner"]);
      expect(state.messages.at(-1).role).toBe("assistant");

      // The conversation list says a person handled it.
      await sp.getByRole("link", { name: "Conversations" }).click();
      const listed = sp
        .locator("table.conversations tbody tr")
        .filter({ hasText: "I have a red itchy rash on my arm" });
      await expect.poll(() => listed.textContent(), { timeout: 15_000 }).toMatch(/staff/);

      expect(staff.errors).toEqual([]);
      expect(visitor.errors).toEqual([]);
      await staff.context.close();
      await visitor.context.close();
    },
  );

  it(
    "has no serious or critical axe findings on the Live page and a " +
      "conversation, in English and Chinese; joins by keyboard",
    async () => {
      for (const locale of ["en-US", "zh-CN"]) {
        const { context, page, errors } = await newPage(demo.browser, { bypassCSP: true, locale });
        await signInByKeyboard(page, demo.dev.url, DEMO_ADMIN_KEY);
        await page.locator('.side a[href="/console/live"]').click();
        // The first test's conversation, back with the agent: listed as live (active in the last 15 minutes).
        const link = page.locator("table.live-list tbody tr a").first();
        await link.waitFor({ timeout: 15_000 });
        expect(await axeFindings(page), `live ${locale}`).toEqual([]);
        await link.focus();
        await page.keyboard.press("Enter");
        const join = page.locator("p.actions button").first();
        await join.waitFor();
        expect(await axeFindings(page), `conversation ${locale}`).toEqual([]);
        // Keyboard only: focus the Join button, Enter; the composer takes focus.
        await join.focus();
        await page.keyboard.press("Enter");
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("live-message");
        await page.keyboard.type(locale === "en-US" ? "Hello from Ana" : "您好");
        await page.keyboard.press("Enter");
        await page
          .locator("ol.transcript li")
          .filter({ hasText: locale === "en-US" ? "Hello from Ana" : "您好" })
          .waitFor();
        expect(await axeFindings(page), `joined ${locale}`).toEqual([]);
        if (locale === "zh-CN") await page.screenshot({ path: "test-results/takeover-staff-zh.png" });
        await page.locator("form.live-composer button.secondary").click();
        await page.locator("p.actions button").first().waitFor();
        expect(errors).toEqual([]);
        await context.close();
      }
    },
  );

  it("where WebSockets are blocked, staff follow a conversation over the SSE fallback", async () => {
    const { context, page, errors } = await newPage(demo.browser);
    const blocked: string[] = [];
    await page.routeWebSocket(/\/channel$/, (ws) => {
      blocked.push(ws.url());
      return ws.close({ code: 1008, reason: "blocked by a proxy" });
    });
    const sse: string[] = [];
    page.on("request", (r) => r.url().includes("/channel?after=") && sse.push(r.url()));
    await signInByKeyboard(page, demo.dev.url, DEMO_ADMIN_KEY);
    await page.locator('.side a[href="/console/live"]').click();
    await page.locator("table.live-list tbody tr a").first().click();
    await expect.poll(() => page.locator("ol.transcript li").count(), { timeout: 20_000 }).toBeGreaterThan(2);
    expect(blocked.length).toBeGreaterThanOrEqual(2);
    expect(sse.length).toBeGreaterThanOrEqual(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    "tells a queued visitor live that nobody is coming once the " + "last staff member leaves, and takes a contact",
    async () => {
      const staff = await staffOnLive();
      const sp = staff.page;

      const visitor = await visitorWithPanel();
      const vp = visitor.page;
      await w(vp, "[data-action=ask-person]").click();
      await w(vp, ".takeover[data-takeover=queued]").waitFor({ timeout: 10_000 });
      const row = sp.locator("table.live-queue tbody tr");
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBeGreaterThan(0);
      const queued = await row.count();

      // Mei leaves the Live page; nobody else is there. No request from the visitor: the session's alarm
      // finds nobody present and the widget shows the site's words and the contact form, live.
      await sp.getByRole("link", { name: "Conversations" }).click();
      await w(vp, ".takeover[data-takeover=unavailable]").waitFor({ timeout: 30_000 });
      expect(await w(vp, "[data-takeover=queued]").count()).toBe(0);
      await vp.screenshot({ path: "test-results/takeover-nobody-came.png" });
      await w(vp, "[data-takeover=unavailable] input").nth(1).fill("ana@example.com");
      await w(vp, '[data-takeover=unavailable] button[type="submit"]').click();
      await w(vp, "[data-takeover=contact-left]").waitFor({ timeout: 10_000 });
      // The conversation left the Live page's queue.
      await sp.getByRole("link", { name: "Live" }).click();
      await sp.getByRole("status").filter({ hasText: "You are available" }).waitFor({ timeout: 15_000 });
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(queued - 1);

      expect(staff.errors).toEqual([]);
      expect(visitor.errors).toEqual([]);
      await staff.context.close();
      await visitor.context.close();
    },
  );
});
