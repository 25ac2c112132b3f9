import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN_KEY, newPage, useSite } from "../helpers/e2e.ts";
import { watchViolations } from "../helpers/csp-watch.ts";
import { axeFindings, signInByKeyboard, tabOrder } from "../helpers/console.ts";
import { CONSOLE_SHOTS } from "../helpers/browser.ts";

/**
 * The console's shell as an owner uses it: signing in with the keyboard only, the session
 * cookie's flags as the browser stored them, the admin key nowhere in the browser, a deep link that
 * survives a reload, both languages, axe-core, sign-out; the strict page policy with no violation.
 * The wrong-key and rate-limit test spends its client address's admin budget for a minute: it comes
 * from an address of its own (the header Cloudflare sets), so the run's other sign-ins are not refused.
 */
const demo = useSite();
const SHOTS = CONSOLE_SHOTS;

describe("the owner's console: shell and sign-in", () => {
  it("signs in by keyboard into an HttpOnly __Host- cookie, keeps no key, opens a deep link, signs out", async () => {
    const { context, page, errors } = await newPage(demo);
    const watch = await watchViolations(context, page);
    await signInByKeyboard(page, demo.url, DEMO_ADMIN_KEY, demo.siteKey);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    expect(page.url()).toBe(`${demo.url}/console/conversations`);
    await expect(page.locator(".top code").textContent()).resolves.toBe(demo.siteKey);

    const cookies = await context.cookies();
    expect(cookies.map((c) => c.name)).toEqual(["__Host-parley-console"]);
    expect(cookies[0]).toMatchObject({ httpOnly: true, secure: true, sameSite: "Strict", path: "/" });
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }) + document.cookie);
    expect(stored).not.toContain(DEMO_ADMIN_KEY);
    expect(await page.evaluate(() => document.cookie)).toBe("");

    // A deep link (and a reload) serves the same shell and finds the session still open.
    await page.reload();
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await expect(page.locator("nav a[aria-current=page]").textContent()).resolves.toBe("Conversations");
    mkdirSync(SHOTS, { recursive: true });

    // Keyboard to the language switch, and the console reads in Chinese.
    await page.getByLabel("Language").selectOption("zh-CN");
    await page.getByRole("heading", { name: "对话" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("zh-CN");
    await page.getByLabel("语言").selectOption("en");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.locator("#site-key").waitFor();
    expect(await context.cookies()).toEqual([]);
    await page.goto(`${demo.url}/console/conversations`);
    await page.locator("#site-key").waitFor();

    expect(await watch.events()).toEqual([]);
    expect(watch.console).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("signs out while a page's requests are still out: they meet the ended session without a page error", async () => {
    const { context, page, errors } = await newPage(demo);
    await signInByKeyboard(page, demo.url, DEMO_ADMIN_KEY, demo.siteKey);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    // The Agents page asks for the agents and the templates; both are held until the owner signed out.
    const isList = (u: URL) => u.pathname === "/v1/admin/agents" || u.pathname === "/v1/admin/templates";
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let asked = 0;
    await page.route(isList, async (route) => {
      asked++;
      await held;
      await route.continue();
    });
    await page.getByRole("link", { name: "Agents" }).click();
    await expect.poll(() => asked).toBe(2);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.locator("#site-key").waitFor();
    const answered = page.waitForResponse((r) => r.url().includes("/v1/admin/templates"));
    release();
    expect((await answered).status()).toBe(401);
    // The page reads the answer in its next tasks; a rejection nobody handles is reported after them.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 100)));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("leads with the team's way in: the site key, a passkey, then the admin key folded away", async () => {
    const { context, page, errors } = await newPage(demo);
    await page.goto(`${demo.url}/console?site=${demo.siteKey}`);
    await page.locator("#site-key").waitFor();
    expect(await page.locator("#site-key").inputValue()).toBe(demo.siteKey);
    // No single sign-on on this site: the passkey is the primary button, the key's field is folded away.
    expect(await page.locator("#passkey-sign-in").getAttribute("class")).toBeNull();
    expect(await page.locator("#sso-sign-in").count()).toBe(0);
    expect(await page.locator("#admin-key").isVisible()).toBe(false);
    expect(await tabOrder(page, 3)).toEqual(["site-key", "passkey-sign-in", "admin-key-way"]);
    expect(await page.locator("#admin-key-way").textContent()).toBe("Setting up the site? Sign in with its admin key");
    // Space opens the disclosure as Enter does; Tab goes on into it.
    await page.keyboard.press("Space");
    expect(await tabOrder(page, 2)).toEqual(["admin-key", "admin-key-sign-in"]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("opens the admin key's form when a one-time sign-in link failed, axe clean in both languages", async () => {
    for (const locale of ["en-US", "zh-CN"]) {
      const { context, page, errors } = await newPage(demo, {
        bypassCSP: true,
        locale,
        extraHTTPHeaders: { "cf-connecting-ip": "203.0.113.8" },
      });
      await page.goto(`${demo.url}/console#sign-in=${"x".repeat(43)}`);
      await page.locator("#sign-in-link-error").waitFor();
      expect(await page.locator("#sign-in-link-error").textContent()).toContain(
        locale === "en-US" ? "the admin key below" : "在下方使用站点密钥和管理密钥登录",
      );
      await page.locator("#admin-key").waitFor();
      expect(await axeFindings(page), `sign-in after a failed link ${locale}`).toEqual([]);
      await page.screenshot({ path: `test-results/console-sign-in-link-failed-${locale}.png` });
      if (locale === "en-US") {
        // No site key yet: each form says so (no request is made), and the key's form sends focus to it.
        await page.locator("#admin-key").focus();
        await page.keyboard.type("some-key");
        await page.keyboard.press("Enter");
        await expect.poll(() => page.locator("#admin-key-error").textContent()).toBe("Write your site key first.");
        expect(await page.evaluate(() => document.activeElement?.id)).toBe("site-key");
        expect(await page.inputValue("#admin-key")).toBe("");
        await page.keyboard.press("Enter");
        await expect.poll(() => page.locator("#sign-in-error").textContent()).toBe("Write your site key first.");
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it("has no serious or critical axe findings on sign-in and the shell, in English and Chinese", async () => {
    for (const locale of ["en-US", "zh-CN"]) {
      const { context, page } = await newPage(demo, { bypassCSP: true, locale });
      await page.goto(`${demo.url}/console`);
      await page.locator("#site-key").waitFor();
      expect(await axeFindings(page), `sign-in ${locale}`).toEqual([]);
      if (locale === "en-US") await page.screenshot({ path: `${SHOTS}/sign-in.png` });
      await signInByKeyboard(page, demo.url, DEMO_ADMIN_KEY, demo.siteKey);
      await page.locator("main h1").waitFor();
      expect(await axeFindings(page), `conversations ${locale}`).toEqual([]);
      await context.close();
    }
  });

  it("refuses a wrong key at the form, then rate limits sign-in and says when to try again", async () => {
    const { context, page, errors } = await newPage(demo, { extraHTTPHeaders: { "cf-connecting-ip": "203.0.113.7" } });
    await signInByKeyboard(page, demo.url, "not-the-admin-key", demo.siteKey);
    await page.getByRole("alert").filter({ hasText: "Wrong site key or admin key." }).waitFor();
    expect(await page.inputValue("#admin-key")).toBe("");
    expect(await context.cookies()).toEqual([]);
    // Spend the rest of this address's minute of sign-in attempts, as a guessing script would.
    const statuses = await page.evaluate(async (siteKey) => {
      const out: number[] = [];
      for (let i = 0; i < 70; i++) {
        const r = await fetch("/v1/console/session", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ siteKey, adminKey: `guess-${i}` }),
        });
        out.push(r.status);
      }
      return out;
    }, demo.siteKey);
    expect(statuses).toContain(401);
    expect(statuses.at(-1)).toBe(429);
    // Now even the right key waits: the form says for how long.
    await page.fill("#admin-key", DEMO_ADMIN_KEY);
    await page.keyboard.press("Enter");
    await page
      .getByRole("alert")
      .filter({ hasText: /^Too many attempts\. Try again in \d+ s\.$/ })
      .waitFor();
    expect(await context.cookies()).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
