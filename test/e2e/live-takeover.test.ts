import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { LiveOverview } from "../../shared/takeover/takeover-api.ts";
import { useSite } from "../helpers/e2e.ts";
import { answered, settled } from "../helpers/e2e-waits.ts";
import { GENERIC_SCRIPT } from "../helpers/fake-upstream.ts";

/**
 * Takeover as the visitor sees it, in Chromium on the built widget against the real
 * worker: the staff's side is driven through the staff routes with the demo site's admin key, as
 * the console's Live page drives them. Nobody there: the contact form. Staff present: queued with
 * the waiting time, a named person joins, their messages arrive live and render safely, the visitor's
 * go to them and not to the model, and after the hand back the agent answers again, knowing what was said.
 */
// The agent asks for a person itself when the visitor says so (its ask_for_person tool).
const demo = useSite({
  script: {
    ...GENERIC_SCRIPT,
    turns: [
      {
        when: ["a human please"],
        steps: [
          { toolCalls: [{ name: "ask_for_person", arguments: { reason: "wants a human" } }] },
          { content: "I have asked for someone from the team." },
        ],
      },
      ...GENERIC_SCRIPT.turns,
    ],
  },
});

/** Staff by script: a named staff key "Mei" (the site's admin key makes it); the visitor sees the key's name. */
let meiKey: Promise<string> | undefined;
async function staff<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  meiKey ??= demo.admin<{ key: string }>("POST", "/v1/admin/keys", { name: "Mei", role: "staff" }).then((k) => k.key);
  return demo.admin<T>(method, path, body, await meiKey);
}

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);
const bar = (page: Page) => q(page, ".takeover");

/** axe-core's serious and critical findings in the widget, in the light and the dark theme. */
async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window)))
    await page.addScriptTag({ path: resolve("node_modules/axe-core/axe.min.js") });
  const found: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await settled(q(page, ".root"));
    const ids = await page.evaluate(async () => {
      const res = await (window as any).axe.run(
        { include: [["parley-chat", ".root"]] },
        { resultTypes: ["violations"] },
      );
      return res.violations
        .filter((v: any) => v.impact === "serious" || v.impact === "critical")
        .map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.html).join(" | ")}`);
    });
    found.push(...ids.map((id: string) => `${colorScheme}: ${id}`));
  }
  await page.emulateMedia({ colorScheme: "light" });
  return found;
}

async function send(page: Page, text: string) {
  await q(page, "textarea").fill(text);
  await q(page, "textarea").press("Enter");
}

beforeAll(async () => {
  // The site hands conversations to its staff (the owner's Setup page writes the same setting).
  // The site's settings are the owner's: the admin key turns takeover on.
  const { site } = await demo.admin<{ site: Record<string, unknown> }>("GET", "/v1/admin/site");
  await demo.admin("PUT", "/v1/admin/site", { ...site, takeover: { enabled: true } });
});

describe("takeover, the visitor's side", () => {
  it("nobody available: says so and takes a contact; then a person joins, chats, and hands back", async () => {
    // axe-core is injected inline: the demo pages' CSP (Trusted Types) would refuse it.
    const context = await demo.newContext({ viewport: { width: 900, height: 820 }, bypassCSP: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    const posted: string[] = [];
    page.on("request", (r) => void (r.method() === "POST" && posted.push(new URL(r.url()).pathname)));
    await page.goto(demo.url + "/");
    await q(page, "button.l").click();
    await send(page, "Tell me about sunscreen");
    await answered(page, "Tell me about sunscreen");

    // Nobody has the Live page open: the site's words and the contact form.
    await q(page, '[data-action="ask-person"]').click();
    await q(page, '[data-takeover="unavailable"]').waitFor();
    expect(await bar(page).textContent()).toContain("Nobody from our team is available right now.");
    await page.screenshot({ path: "test-results/e2e-takeover-unavailable.png" });
    expect(await axe(page)).toEqual([]);
    await q(page, '[data-takeover="unavailable"] input').nth(0).fill("Ana");
    await q(page, '[data-takeover="unavailable"] input').nth(1).fill("ana@example.com");
    await q(page, '[data-takeover="unavailable"] textarea').fill("Call after 5");
    await q(page, '[data-takeover="unavailable"] button[type="submit"]').click();
    await q(page, '[data-takeover="contact-left"]').waitFor();
    expect(await q(page, '[data-takeover="contact-left"]').textContent()).toContain("ana@example.com");
    const sid = posted.find((p) => p.endsWith("/contact"))!.split("/")[3];
    const session = await staff<{ state: { contacts: Array<{ contact: string }> } }>(
      "GET",
      `/v1/admin/sessions/${sid}`,
    );
    expect(session.state.contacts.map((c) => c.contact)).toEqual(["ana@example.com"]);

    // A staff member opens the Live page; the visitor asks again: queued, with the waiting time.
    await staff("POST", "/v1/admin/live/presence", { name: "Mei" });
    await q(page, '[data-action="ask-person"]').click();
    await q(page, '[data-takeover="queued"]').waitFor();
    await expect.poll(() => q(page, ".waited").textContent()).toMatch(/^Waiting 0:0[1-9]/);
    await page.screenshot({ path: "test-results/e2e-takeover-waiting.png" });
    expect(await axe(page)).toEqual([]);
    const live = await staff<LiveOverview>("GET", "/v1/admin/live");
    expect(live.queue.map((c) => c.sessionId)).toContain(sid);

    // Mei joins: the visitor sees it at once, named.
    await staff("POST", `/v1/admin/live/${sid}/join`, { name: "Mei" });
    await q(page, '[data-handoff="joined"]').getByText("Mei joined the conversation").waitFor();
    await q(page, '[data-takeover="person"]').getByText("You're chatting with Mei").waitFor();
    // Her message arrives live, as markdown mapped to elements: nothing in it runs.
    const hostile = 'Hi, I am **Mei** from the clinic. <img src=x onerror="window.pwned=1"> How can I help?';
    await staff("POST", `/v1/admin/live/${sid}/messages`, { content: hostile });
    const staffMsg = q(page, '.msg[data-role="person"]').last();
    await staffMsg.waitFor();
    expect(await staffMsg.locator(".who").textContent()).toContain("Mei");
    expect(await staffMsg.locator(".md strong").textContent()).toBe("Mei");
    expect(await staffMsg.locator(".md").textContent()).toContain('<img src=x onerror="window.pwned=1">');
    expect(await staffMsg.locator("img").count()).toBe(0);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    // With the panel closed, Mei's next message shows on the launcher's badge.
    await q(page, "button.l").click();
    await staff("POST", `/v1/admin/live/${sid}/messages`, { content: "Are you still there?" });
    await expect.poll(() => q(page, "button.l b").textContent()).toBe("1");
    await q(page, "button.l").click();
    await q(page, '.msg[data-role="person"]').getByText("Are you still there?").waitFor();
    // The visitor's answer goes to Mei, not to the model.
    const asked = (await demo.requests()).length;
    await send(page, "My rash is getting worse");
    await expect
      .poll(
        async () =>
          (
            await staff<{ state: { messages: Array<{ content: string }> } }>("GET", `/v1/admin/sessions/${sid}`)
          ).state.messages.at(-1)?.content,
      )
      .toBe("My rash is getting worse");
    expect(posted.filter((p) => p.endsWith("/messages"))).toHaveLength(1);
    expect((await demo.requests()).length).toBe(asked);
    await page.screenshot({ path: "test-results/e2e-takeover-with-person.png" });
    expect(await axe(page)).toEqual([]);

    // Mei hands back: the assistant answers again, with everything said so far.
    await staff("POST", `/v1/admin/live/${sid}/handback`, { name: "Mei" });
    await q(page, '[data-handoff="back"]').getByText("You're back with the assistant").waitFor();
    await send(page, "Thanks, and what about sunscreen?");
    await answered(page, "Thanks, and what about sunscreen?");
    await expect.poll(async () => (await demo.requests()).length).toBe(asked + 1);
    const seen = JSON.stringify((await demo.requests()).at(-1)?.messages);
    expect(seen).toContain("from the clinic");
    expect(seen).toContain("My rash is getting worse");
    await page.screenshot({ path: "test-results/e2e-takeover-handed-back.png" });
    // After a reload the conversation reads the same: the joins in place, Mei's message named.
    await page.reload();
    await q(page, "button.l").click();
    await q(page, '[data-handoff="back"]').waitFor();
    expect(
      await q(page, "[data-handoff], .msg").evaluateAll((els) =>
        els.map((e) => e.getAttribute("data-handoff") ?? e.getAttribute("data-role")),
      ),
    ).toEqual(["assistant", "user", "assistant", "joined", "person", "person", "user", "back", "user", "assistant"]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the agent's ask_for_person shows the wait in the panel, in Chinese too", async () => {
    const context = await demo.newContext({ viewport: { width: 900, height: 820 }, locale: "zh-CN" });
    const page = await context.newPage();
    await page.goto(demo.url + "/");
    await q(page, "button.l").click();
    await staff("POST", "/v1/admin/live/presence", { name: "Mei" });
    await send(page, "a human please");
    await q(page, '[data-takeover="queued"]').waitFor();
    expect(await bar(page).textContent()).toContain("正在等待工作人员加入");
    await page.screenshot({ path: "test-results/e2e-takeover-agent-asked-zh.png" });
    await context.close();
  });
});
