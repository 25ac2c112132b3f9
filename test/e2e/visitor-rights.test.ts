import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN_KEY, newPage, useSite } from "../helpers/e2e.ts";
import { answered } from "../helpers/e2e-waits.ts";
import { signInByKeyboard } from "../helpers/console.ts";

/**
 * The visitor's consent and own data in the built widget (local worker, demo model), in English and
 * Chinese, by keyboard: the site's notice comes before the composer (declining stores nothing), a
 * photo has its own; "Your data" downloads a file that opens offline from disk with the messages, the
 * advice card and the photo in it, and deletes the conversation (the widget starts afresh). On a site
 * of the file's own: its notice is asked of nobody else.
 */
const demo = useSite();
const VERSION = "2026-11";
const NOTICE = {
  en: "We keep this conversation for 90 days to answer you. It may hold health details.",
  "zh-CN": "我们将此对话保存 90 天以便回答您。其中可能包含健康信息。",
};
const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

async function owner(path: string, init: RequestInit = {}) {
  const res = await demo.adminFetch(path, { ...init, headers: { origin: demo.url } });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

/** The site asks consent before the first message, as a clinic would set it in its settings. */
async function publish(version: string) {
  const { body } = await owner("/v1/admin/site");
  const { allowedOrigins, models, maxTokens, rateLimits, budgets, desk, retentionDays, takeover } = body.site;
  const settings = { allowedOrigins, models, maxTokens, rateLimits, budgets, desk, retentionDays, takeover };
  const consent = { text: NOTICE, privacyUrl: "https://clinic.example/privacy", version };
  const put = await owner("/v1/admin/site", { method: "PUT", body: JSON.stringify({ ...settings, consent }) });
  expect(put.status).toBe(200);
}
beforeAll(() => publish(VERSION));

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector("parley-chat")!.shadowRoot!.activeElement as HTMLElement | null;
    return el ? el.id || el.textContent?.trim() || el.tagName : "";
  });

/** Tab until the control named `name` has focus (a few steps at most), then Enter. */
async function press(page: Page, name: string) {
  for (let i = 0; i < 8 && (await focused(page)) !== name; i++) await page.keyboard.press("Tab");
  expect(await focused(page)).toBe(name);
  await page.keyboard.press("Enter");
}

/** The stored session (the key beside it, `...:consent`, holds the agreed version as plain text). */
async function credentials(page: Page): Promise<{ sessionId: string; token: string } | null> {
  return page.evaluate(() => {
    for (const key of Object.keys(localStorage).filter((k) => !k.endsWith(":consent"))) {
      const v = JSON.parse(localStorage.getItem(key) ?? "null");
      if (v && typeof v.token === "string") return v;
    }
    return null;
  });
}

/** axe-core's serious findings in the panel, in the light theme and the dark one. */
async function axeBothThemes(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: resolve("node_modules/axe-core/axe.min.js") });
  const found: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const ids = await page.evaluate(async () => {
      const res = await (window as any).axe.run(
        { include: [["parley-chat", ".panel"]] },
        { resultTypes: ["violations"] },
      );
      return res.violations.filter((v: any) => v.impact === "serious" || v.impact === "critical").map((v: any) => v.id);
    });
    found.push(...ids.map((id: string) => `${colorScheme}: ${id}`));
  }
  await page.emulateMedia({ colorScheme: "light" });
  return found;
}

/** Sends a message and waits for the whole reply. */
async function ask(page: Page, text: string) {
  await q(page, "textarea").focus();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
  await answered(page, text);
}

/** Saves the file the widget downloads when `name` is pressed; answers its path. */
async function downloaded(page: Page, name: string): Promise<string> {
  const download = page.waitForEvent("download");
  await press(page, name);
  const file = join(mkdtempSync(join(tmpdir(), "parley-download-")), (await download).suggestedFilename());
  await (await download).saveAs(file);
  return file;
}

/** Opens a downloaded file from disk with the network off; answers the page and any request it made. */
async function openOffline(file: string) {
  const { context, page } = await newPage(demo);
  const requests: string[] = [];
  page.on("request", (r) => void (r.url().startsWith("file:") || requests.push(r.url())));
  await context.setOffline(true);
  await page.goto(`file://${file}`);
  return { context, page, requests };
}

describe("the visitor's consent and own data", () => {
  it("en, by keyboard: the notice before the composer; declining stores nothing; agreeing records it", async () => {
    const { context, page, errors } = await newPage(demo, { bypassCSP: true });
    await page.goto(demo.url + "/qa.html");
    await q(page, "button.l").click();
    const card = q(page, "[data-consent]");
    await card.waitFor();
    expect(await q(page, "textarea").count()).toBe(0);
    expect(await card.textContent()).toContain(NOTICE.en);
    expect(await card.getByRole("link", { name: "Privacy notice" }).getAttribute("href")).toBe(
      "https://clinic.example/privacy",
    );
    await expect.poll(() => focused(page)).toBe("parley-consent-title");
    expect(await axeBothThemes(page)).toEqual([]);
    await page.screenshot({ path: "test-results/e2e-consent-notice.png" });

    await press(page, "No, thanks");
    await expect.poll(() => card.getAttribute("data-consent")).toBe("declined");
    expect(await card.getByRole("status").textContent()).toContain("nothing you typed was sent");
    expect((await owner("/v1/admin/sessions?agent=medical-qa")).body.sessions).toEqual([]);
    expect(await credentials(page)).toBeNull();

    await press(page, "Read the notice again");
    await expect.poll(() => focused(page)).toBe("parley-consent-title");
    await press(page, "I agree");
    await q(page, "textarea").waitFor();
    await ask(page, "How long does a sunburn take to heal?");
    const { sessionId } = (await credentials(page))!;
    const { body } = await owner(`/v1/admin/sessions/${sessionId}`);
    expect(body.state.consent.chat).toEqual({ version: VERSION, at: expect.any(Number) });
    // A new version of the notice: the next message brings it up, and goes once the visitor agreed.
    await publish("2026-12");
    await q(page, "textarea").focus();
    await page.keyboard.type("And a blister?");
    await page.keyboard.press("Enter");
    await expect.poll(() => card.getAttribute("data-consent")).toBe("2026-12");
    await expect.poll(() => focused(page)).toBe("parley-consent-title");
    await press(page, "I agree");
    await expect.poll(() => q(page, ".msg[data-role=user]").count()).toBe(2);
    await expect.poll(() => q(page, "button.send.stop").count()).toBe(0);
    const after = await owner(`/v1/admin/sessions/${sessionId}`);
    expect(after.body.state.consent.chat.version).toBe("2026-12");
    expect(after.body.state.messages.filter((m: { role: string }) => m.role === "user")).toHaveLength(2);
    await publish(VERSION);
    // The owner's console shows which version was agreed.
    const consolePage = await context.newPage();
    await signInByKeyboard(consolePage, demo.url, DEMO_ADMIN_KEY, demo.siteKey);
    await consolePage.getByRole("heading", { name: "Conversations" }).waitFor();
    await consolePage.goto(`${demo.url}/console/conversations/${sessionId}`);
    await expect
      .poll(() => consolePage.locator("[data-field=consent]").textContent())
      .toMatch(/^Conversation: version 2026-12, /);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("en: a photo's own consent; the download opens offline from disk with the messages, card and photo", async () => {
    const { context, page, errors } = await newPage(demo, { bypassCSP: true });
    await page.goto(demo.url + "/");
    await q(page, "button.l").click();
    await q(page, "[data-consent]").waitFor();
    await press(page, "I agree");
    await q(page, "button.attach").waitFor();
    // The photo's consent line, by keyboard; the worker records it before the upload.
    await q(page, "button.attach").focus();
    await page.keyboard.press("Enter");
    await q(page, ".photo-consent").waitFor();
    const chooser = page.waitForEvent("filechooser");
    await q(page, ".photo-consent").getByRole("button", { name: "Continue" }).focus();
    await page.keyboard.press("Enter");
    const photo = await page.evaluate(async () => {
      const canvas = new OffscreenCanvas(200, 120);
      const ctx = canvas.getContext("2d")!;
      ctx.fillStyle = "#c03030";
      ctx.fillRect(0, 0, 200, 120);
      return [...new Uint8Array(await (await canvas.convertToBlob({ type: "image/jpeg" })).arrayBuffer())];
    });
    await (await chooser).setFiles({ name: "arm.jpg", mimeType: "image/jpeg", buffer: Buffer.from(photo) });
    await expect.poll(() => q(page, ".photo-strip li[aria-busy=false]").count()).toBe(1);
    await ask(page, "Here is the rash on my arm");
    await q(page, ".card.advice").first().waitFor();

    await q(page, "button[data-action=privacy]").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => focused(page)).toBe("parley-rights-title");
    expect(await axeBothThemes(page)).toEqual([]);
    const html = await downloaded(page, "Download (readable file)");
    const json = JSON.parse(readFileSync(await downloaded(page, "Download (JSON)"), "utf8"));
    expect(json.conversation.consent.chat.version).toBe(VERSION);
    expect(json.conversation.consent.photo.version).toBe("1");

    const file = await openOffline(html);
    expect(await file.page.locator("h1").textContent()).toMatch(/^Your conversation with /);
    expect(await file.page.locator(".msg.user").first().textContent()).toContain("Here is the rash on my arm");
    expect(await file.page.locator(".msg.assistant").count()).toBeGreaterThan(0);
    expect(await file.page.locator(".card").first().textContent()).toContain("What your photo shows");
    const sizes = await file.page
      .locator("img")
      .evaluateAll((imgs) => (imgs as HTMLImageElement[]).map((i) => [i.src.slice(0, 23), i.naturalWidth]));
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes.every(([src, w]) => src === "data:image/jpeg;base64," && Number(w) > 0)).toBe(true);
    expect(file.requests).toEqual([]);
    await file.page.screenshot({ path: "test-results/e2e-download-offline.png", fullPage: true });
    await file.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("zh-CN, by keyboard: the notice, a Chinese file, the conversation deleted and started afresh", async () => {
    const { context, page, errors } = await newPage(demo, { locale: "zh-CN" });
    await page.goto(demo.url + "/qa.html");
    await q(page, "button.l").click();
    const card = q(page, "[data-consent]");
    await card.waitFor();
    expect(await card.textContent()).toContain(NOTICE["zh-CN"]);
    await press(page, "我同意");
    await q(page, "textarea").waitFor();
    await ask(page, "晒伤多久能好？");
    const { sessionId } = (await credentials(page))!;

    await q(page, "button[data-action=privacy]").focus();
    await page.keyboard.press("Enter");
    const file = await openOffline(await downloaded(page, "下载（可阅读的文件）"));
    expect(await file.page.locator("html").getAttribute("lang")).toBe("zh-CN");
    expect(await file.page.locator("h1").textContent()).toMatch(/^您与/);
    expect(await file.page.locator(".msg.user").textContent()).toContain("晒伤多久能好？");
    await file.context.close();

    await press(page, "删除此对话");
    // The question takes focus; its confirm button is the first stop.
    await expect.poll(() => focused(page)).toBe("永久删除");
    await page.screenshot({ path: "test-results/e2e-erase-confirm-zh.png" });
    await page.keyboard.press("Enter");
    // Afresh: the consent is asked again for a new conversation, and the old one is gone at the worker.
    await expect.poll(() => card.getAttribute("data-consent")).toBe(VERSION);
    expect(await q(page, ".msg[data-role=user]").count()).toBe(0);
    expect((await owner(`/v1/admin/sessions/${sessionId}`)).status).toBe(404);
    const { body } = await owner("/v1/admin/erasures");
    expect(body.erasures).toContainEqual({ sessionId, by: "visitor", at: expect.any(Number) });
    // The owner sees the erasure in the console: the id, and when; nothing else is left of it.
    const consolePage = await context.newPage();
    await signInByKeyboard(consolePage, demo.url, DEMO_ADMIN_KEY, demo.siteKey);
    const erased = consolePage.locator("details.erasures");
    await erased.locator("summary").click();
    await expect.poll(() => erased.locator("tbody").textContent()).toContain(sessionId);
    expect(errors).toEqual([]);
    await context.close();
  });
});
