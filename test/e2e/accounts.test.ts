import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CONSOLE_SHOTS } from "../helpers/browser.ts";
import { addVirtualAuthenticator, axeFindings, signInByKeyboard } from "../helpers/console.ts";
import { DEMO_ADMIN_KEY, newPage, useSite } from "../helpers/e2e.ts";
import { answered } from "../helpers/e2e-waits.ts";

/**
 * Accounts end to end, in Chromium with its DevTools virtual authenticator (CDP WebAuthn domain, a
 * real WebAuthn ceremony in the page, nothing mocked): the owner (the site's admin key) invites Mei
 * as staff; Mei opens the link, names herself and creates a passkey; signs out and in with it; takes
 * a visitor's conversation over (the visitor sees "Mei", typed nowhere); the owner's Audit page shows
 * her steps and the chain verifies. The console runs on http://localhost (a WebAuthn relying party
 * must be a domain, not an IP). On a site of the file's own: its team, audit trail and Live page are
 * nobody else's.
 */
const demo = useSite();
/** The run's worker by name: the passkeys' relying party. */
const host = () => demo.url.replace("127.0.0.1", "localhost");

const w = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

describe("accounts with passkeys", () => {
  it("invitation -> passkey -> sign-in -> takeover as Mei -> the owner reads it in the audit trail", async () => {
    // The owner, with the site's admin key: takeover on, then an invitation for Mei as staff.
    const url = host();
    const owner = await newPage(demo, { bypassCSP: true });
    const op = owner.page;
    await signInByKeyboard(op, url, DEMO_ADMIN_KEY, demo.siteKey);
    await op.getByRole("link", { name: "Setup" }).click();
    await op.getByLabel("Visitors may ask for a person; staff answer from the Live page").check();
    await op.getByRole("button", { name: "Save settings" }).click();
    await op.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await op.getByRole("link", { name: "Team" }).click();
    await op.getByLabel("Role", { exact: true }).selectOption("staff");
    await op.getByLabel("Their name (they may change it)").fill("Mei");
    await op.getByRole("button", { name: "Create an invitation link" }).click();
    const link = await op.locator("#invite-link").inputValue();
    expect(link).toMatch(new RegExp(`^${url}/console/invite\\?site=${demo.siteKey}#[\\w-]{43}$`));
    expect(await axeFindings(op), "team page").toEqual([]);

    // Mei, in her own browser with a passkey-capable authenticator: the invitation, by keyboard.
    const mei = await newPage(demo, { bypassCSP: true });
    const mp = mei.page;
    const authenticator = await addVirtualAuthenticator(mp);
    await mp.goto(link);
    await expect.poll(() => mp.locator("#invite-name").inputValue()).toBe("Mei");
    expect(await mp.getByText("You are invited as staff.").count()).toBe(1);
    expect(await axeFindings(mp), "invitation page").toEqual([]);
    await mp.locator("#invite-name").focus();
    await mp.keyboard.press("Enter");
    await mp.locator(".top .who").filter({ hasText: "Mei" }).waitFor();
    expect(await mp.locator(".top .who").textContent()).toContain("(staff)");
    const nav = await mp.locator(".side a").allTextContents();
    expect(nav).toEqual(["Conversations", "Live", "Insights", "My account"]);
    const [credential] = await authenticator.credentials();
    expect(credential).toMatchObject({ rpId: "localhost" });

    // Signed out, then in again with the passkey (the site key, then the button).
    await mp.getByRole("button", { name: "Sign out" }).click();
    await mp.locator("#site-key").fill(demo.siteKey);
    expect(await axeFindings(mp), "sign-in page").toEqual([]);
    await mp.getByRole("button", { name: "Sign in with a passkey" }).click();
    await mp.locator(".top .who").filter({ hasText: "Mei" }).waitFor();
    expect((await authenticator.credentials())[0].signCount).toBeGreaterThan(credential.signCount);

    // A visitor asks for a person; Mei, on the Live page, joins without typing a name.
    await mp.getByRole("link", { name: "Live" }).click();
    await mp.getByText("Visitors see you as Mei when you join.").waitFor();
    const visitor = await newPage(demo);
    const vp = visitor.page;
    await vp.goto(demo.url + "/");
    await w(vp, "button.l").click();
    await w(vp, "textarea.input").first().click();
    await vp.keyboard.type("A mole changed colour");
    await vp.keyboard.press("Enter");
    await answered(vp, "A mole changed colour");
    await w(vp, "[data-action=ask-person]").click();
    await w(vp, ".takeover[data-takeover=queued]").waitFor();
    const row = mp.locator("table.live-queue tbody tr").filter({ hasText: "A mole changed colour" });
    await row.waitFor();
    await row.getByRole("link").click();
    await mp.getByRole("button", { name: "Join as Mei" }).click();
    await mp.getByRole("status").filter({ hasText: "Mei handles this conversation" }).waitFor();
    await w(vp, ".handoff[data-handoff=joined]").filter({ hasText: "Mei" }).waitFor();
    await mp.getByRole("button", { name: "Hand back to the agent" }).click();
    await w(vp, ".handoff[data-handoff=back]").waitFor();
    // Mei may not open the owner's pages: the worker refuses, whatever the page asks.
    const refused = await mp.evaluate(async () => (await fetch("/v1/admin/audit")).status);
    expect(refused).toBe(403);

    // The owner's Audit page: Mei's steps, by name; the chain verifies.
    await op.getByRole("link", { name: "Audit" }).click();
    await op.getByLabel("Person or key (name or id)").fill("Mei");
    await op.getByRole("button", { name: "Apply filters" }).click();
    const actions = op.locator("table.audit tbody tr td:nth-child(3)");
    await expect
      .poll(() => actions.allTextContents())
      .toEqual(expect.arrayContaining(["invitation.accept", "passkey.add", "sign_in", "sign_out", "takeover.join"]));
    expect(await actions.allTextContents()).toContain("permission.denied");
    await op.getByRole("button", { name: "Verify the chain" }).click();
    await op.getByRole("status").filter({ hasText: "The chain is intact" }).waitFor();
    expect(await axeFindings(op), "audit page").toEqual([]);
    mkdirSync(CONSOLE_SHOTS, { recursive: true });
    await op.screenshot({ path: `${CONSOLE_SHOTS}/audit.png`, fullPage: true });

    // The owner makes Mei a viewer on Team: her session ends at once.
    await op.getByRole("link", { name: "Team" }).click();
    await op.getByLabel("Role of Mei").selectOption("viewer");
    await op.getByRole("button", { name: "Save the role of Mei" }).click();
    await op.getByRole("status").filter({ hasText: "Done." }).waitFor();
    expect(await mp.evaluate(async () => (await fetch("/v1/admin/live")).status)).toBe(401);

    expect([...owner.errors, ...mei.errors, ...visitor.errors]).toEqual([]);
    await Promise.all([owner.context.close(), mei.context.close(), visitor.context.close()]);
  });

  it("shows the Team, Audit, invitation and sign-in pages in Chinese, axe clean", async () => {
    const url = host();
    const { context, page, errors } = await newPage(demo, { bypassCSP: true, locale: "zh-CN" });
    await signInByKeyboard(page, url, DEMO_ADMIN_KEY, demo.siteKey);
    for (const path of ["team", "audit", "account"]) {
      await page.locator(`.side a[href="/console/${path}"]`).click();
      await page.locator("main h1").waitFor();
      expect(await axeFindings(page), `${path} zh-CN`).toEqual([]);
    }
    expect(await page.locator("main h1").textContent()).toBe("我的账户");
    await page.goto(`${url}/console/invite?site=${demo.siteKey}#${"x".repeat(43)}`);
    await page.getByRole("alert").filter({ hasText: "此邀请无法使用" }).waitFor();
    expect(await axeFindings(page), "invitation zh-CN").toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
