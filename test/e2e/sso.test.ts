import type { Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync } from "node:fs";
import { CONSOLE_SHOTS } from "../helpers/browser.ts";
import { addVirtualAuthenticator, axeFindings, signInByKeyboard, tabOrder } from "../helpers/console.ts";
import { DEMO_ADMIN_KEY, newPage, useSite } from "../helpers/e2e.ts";
import { OIDC_CLIENT_SECRET_ENV, startOidcProvider, type LocalProvider } from "../helpers/oidc-provider.ts";

/**
 * Single sign-on end to end, against a real OpenID provider (oidc-provider, certified) on 127.0.0.1:
 * the owner sets it up on Team; Chromium signs in through the provider's own login and consent pages,
 * and the console (on http://localhost, another site than the provider's, so the browser treats the
 * round trip as cross-site) opens as the account the provider's claim maps. Then each refusal, made
 * by changing what travels between the browser, the provider and the worker: the console says why,
 * and the site's audit trail records it. On a site of the file's own (its single sign-on settings and
 * trail); the run's worker holds the provider's client secret (e2e-setup.ts).
 */
const SECRET_ENV = OIDC_CLIENT_SECRET_ENV;
const demo = useSite();
let idp: LocalProvider;
let url = "";

beforeAll(async () => {
  url = demo.url.replace("127.0.0.1", "localhost");
  idp = await startOidcProvider(`${url}/console/sso/callback`);
});
afterAll(async () => {
  await idp?.close();
});

/** The admin API with the site's key (scripts' way): the audit trail, the settings. */
const admin = (path: string, init: RequestInit = {}) => demo.adminFetch(path, init);
const lastSignIn = async () =>
  ((await (await admin("/v1/admin/audit?action=sign_in")).json()) as { entries: any[] }).entries[0];

/** From the console's sign-in page (`?site=` fills the site key in) to the provider's login page. */
async function toProvider(page: Page) {
  await page.goto(`${url}/console?site=${demo.siteKey}`);
  await page.getByRole("button", { name: "Sign in with Clinic ID" }).click();
}

/** The provider's own pages: any password, then its consent page. */
async function atProvider(page: Page, login: string) {
  await page.locator("input[name=login]").fill(login);
  await page.locator("input[name=password]").fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

/**
 * Changes the first callback the console page posts to the worker (what the provider sent back, as
 * the worker receives it): `change` gives the body to send instead, or null to drop the request. A
 * redirect's target cannot be intercepted in the browser, so the change is made where it is posted.
 */
async function changeCallbackOnce(page: Page, change: (body: Record<string, string>) => unknown) {
  let done = false;
  await page.route(`${url}/v1/console/sso/callback`, async (route) => {
    if (done) return route.continue();
    done = true;
    const body = await change(JSON.parse(route.request().postData() ?? "{}"));
    if (body === null) return route.abort();
    await route.continue({ postData: JSON.stringify(body) });
  });
}

/** Reroutes the first request `match` catches to `rewrite(its url)`; later ones pass. */
async function rerouteOnce(page: Page, match: (u: URL) => boolean, rewrite: (u: URL) => string | Promise<string>) {
  let done = false;
  await page.route(
    (u) => !done && match(u),
    async (route: Route) => {
      done = true;
      const to = await rewrite(new URL(route.request().url()));
      await route.fulfill({ status: 302, headers: { location: to } });
    },
  );
}
const isAuthorize = (u: URL) => u.origin === idp.issuer && u.pathname === "/auth" && u.searchParams.has("nonce");

async function refused(page: Page, text: RegExp, code: string) {
  await page.getByRole("alert").filter({ hasText: text }).waitFor();
  expect(await page.locator("#site-key").inputValue()).toBe(demo.siteKey);
  expect(await lastSignIn()).toMatchObject({ object: "sso", outcome: "refused", code });
}

describe("single sign-on with a real OpenID provider", () => {
  it("the owner sets it up on Team; Mei signs in through the provider's pages as staff, recorded", async () => {
    const owner = await newPage(demo, { bypassCSP: true });
    const op = owner.page;
    await signInByKeyboard(op, url, DEMO_ADMIN_KEY, demo.siteKey);
    await op.getByRole("link", { name: "Team" }).click();
    expect(await op.locator("#sso-redirect").inputValue()).toBe(`${url}/console/sso/callback`);
    await op.getByLabel("Name on the sign-in button").fill("Clinic ID");
    await op.getByLabel("Issuer URL").fill(idp.issuer);
    await op.getByLabel("Client ID").fill(idp.client.id);
    await op.getByLabel("Worker secret holding the client secret").fill(SECRET_ENV);
    await op.getByLabel("More scopes (optional, space-separated)").fill("groups");
    await op.getByLabel("Allowed e-mail domains (one per line)").fill("clinic.example");
    for (const [value, role] of [
      ["parley-owners", "owner"],
      ["parley-staff", "staff"],
    ]) {
      await op.getByRole("button", { name: "Add a rule" }).click();
      const n = await op.locator("[aria-label^='Claim value, rule']").count();
      await op.getByLabel(`Claim value, rule ${n}`).fill(value);
      await op.getByLabel(`Role, rule ${n}`).selectOption(role);
    }
    await op.getByRole("button", { name: "Save single sign-on" }).click();
    await op.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    expect(await axeFindings(op), "team page with single sign-on").toEqual([]);

    const mei = await newPage(demo, { bypassCSP: true });
    const mp = mei.page;
    await mp.goto(`${url}/console`);
    await mp.locator("#site-key").fill(demo.siteKey);
    await mp.locator("#site-key").press("Tab");
    await mp.getByRole("button", { name: "Sign in with Clinic ID" }).waitFor();
    expect(await axeFindings(mp), "sign-in page with single sign-on").toEqual([]);
    // The provider's button comes first and is the primary one; a passkey next; the admin key last, folded.
    await mp.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    mkdirSync(CONSOLE_SHOTS, { recursive: true });
    await mp.screenshot({ path: `${CONSOLE_SHOTS}/sign-in-sso.png` });
    await mp.locator("#site-key").focus();
    expect(await tabOrder(mp, 3)).toEqual(["sso-sign-in", "passkey-sign-in", "admin-key-way"]);
    expect(await mp.locator("#sso-sign-in").getAttribute("class")).toBeNull();
    expect(await mp.locator("#passkey-sign-in").getAttribute("class")).toBe("secondary");
    expect(await mp.locator("#admin-key").isVisible()).toBe(false);
    // Enter in the site key signs in the primary way: to the provider.
    await mp.locator("#site-key").focus();
    await mp.keyboard.press("Enter");
    await atProvider(mp, "mei");
    await mp.locator(".top .who").filter({ hasText: "Mei Chen" }).waitFor();
    expect(await mp.locator(".top .who").textContent()).toContain("(staff)");
    expect(new URL(mp.url()).search).toBe("");
    expect(await mp.locator(".side a").allTextContents()).toEqual(["Conversations", "Live", "Insights", "My account"]);
    const entries = ((await (await admin("/v1/admin/audit?who=Mei%20Chen")).json()) as { entries: any[] }).entries;
    expect(entries.map((e) => [e.action, e.object, e.outcome])).toEqual(
      expect.arrayContaining([
        ["account.create", expect.any(String), "ok"],
        ["sign_in", "sso", "ok"],
      ]),
    );
    const team = (await (await admin("/v1/admin/accounts")).json()) as { accounts: any[] };
    expect(team.accounts).toEqual(expect.arrayContaining([expect.objectContaining({ name: "Mei Chen", sso: true })]));
    // The owner's Team page: Mei's row says how she signs in (the provider's host), her e-mail beside it.
    await op.reload();
    const row = op.locator("table.list tbody tr").filter({ hasText: "Mei Chen" });
    await row.getByText(`Single sign-on: ${new URL(idp.issuer).host}`).waitFor();
    expect(await row.getByLabel("E-mail of Mei Chen").inputValue()).toBe("mei@clinic.example");
    expect(await axeFindings(op), "team page with a single sign-on account").toEqual([]);
    // Her identity is her only way in (no passkey): the owner's Unlink is refused, and the page says why.
    await row.getByRole("button", { name: `Unlink ${new URL(idp.issuer).host} from Mei Chen` }).click();
    await op.getByRole("status").filter({ hasText: "only way to sign in" }).waitFor();
    expect([...owner.errors, ...mei.errors]).toEqual([]);
    await Promise.all([owner.context.close(), mei.context.close()]);
  });

  it("an invited account with a passkey signs in by single sign-on into itself, linked; both ways in work", async () => {
    const created = await admin("/v1/admin/invitations", {
      method: "POST",
      body: JSON.stringify({ role: "editor", name: "Ana", email: "ana@clinic.example" }),
    });
    const { token } = (await created.json()) as { token: string };
    const ana = await newPage(demo, { bypassCSP: true });
    const ap = ana.page;
    await addVirtualAuthenticator(ap);
    await ap.goto(`${url}/console/invite?site=${demo.siteKey}#${token}`);
    await expect.poll(() => ap.locator("#invite-name").inputValue()).toBe("Ana");
    await ap.locator("#invite-name").press("Enter");
    const who = ap.locator(".top .who").filter({ hasText: "Ana" });
    await who.waitFor();
    const signOut = () => ap.getByRole("button", { name: "Sign out" }).click();

    // Signed out, then in with the provider: the same account (its name and role), not a second one.
    await signOut();
    await toProvider(ap);
    await atProvider(ap, "ana");
    await who.waitFor();
    expect(await who.textContent()).toContain("(editor)");
    const team = (await (await admin("/v1/admin/accounts")).json()) as { accounts: any[] };
    const anas = team.accounts.filter((a) => a.email === "ana@clinic.example");
    expect(anas).toMatchObject([{ name: "Ana", role: "editor", passkeys: 1, sso: true }]);
    const linked = ((await (await admin("/v1/admin/audit?action=identity.link")).json()) as { entries: any[] }).entries;
    expect(linked).toMatchObject([{ actorName: "Ana", object: anas[0].id, outcome: "ok" }]);

    // And with the passkey again, clicked while the site's single sign-on is still being looked up: the
    // button does what it says, whatever the look-up answers after.
    await signOut();
    const isLookUp = (u: URL) => u.pathname === "/v1/console/sso";
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    await ap.route(isLookUp, async (route) => {
      await held;
      await route.continue();
    });
    await ap.goto(`${url}/console?site=${demo.siteKey}`);
    await ap.getByRole("button", { name: "Sign in with a passkey" }).click();
    answer();
    await who.waitFor();
    expect(await lastSignIn()).toMatchObject({ actorName: "Ana", object: "passkey", outcome: "ok" });
    expect(new URL(ap.url()).origin).toBe(url);
    await ap.unroute(isLookUp);

    // The owner's Team page: Ana signs in with a passkey and the provider, Mei with the provider only.
    const owner = await newPage(demo, { bypassCSP: true });
    const op = owner.page;
    await signInByKeyboard(op, url, DEMO_ADMIN_KEY, demo.siteKey);
    await op.getByRole("link", { name: "Team" }).click();
    const row = op.locator("table.list tbody tr").filter({ hasText: "Ana" });
    await row.getByText(`Single sign-on: ${new URL(idp.issuer).host}`).waitFor();
    expect(await row.getByText("1 passkey", { exact: true }).count()).toBe(1);
    expect(await axeFindings(op), "team page with a linked account").toEqual([]);
    mkdirSync(CONSOLE_SHOTS, { recursive: true });
    await op.screenshot({ path: `${CONSOLE_SHOTS}/team.png`, fullPage: true });
    expect([...ana.errors, ...owner.errors]).toEqual([]);
    await Promise.all([ana.context.close(), owner.context.close()]);
  });

  it("maps the role from a group claim the provider gives only at its userinfo endpoint", async () => {
    const only = await startOidcProvider(`${url}/console/sso/callback`, { claimsOnlyInUserinfo: true });
    const current = ((await (await admin("/v1/admin/sso")).json()) as { sso: Record<string, unknown> }).sso;
    const put = (issuer: string) =>
      admin("/v1/admin/sso", { method: "PUT", body: JSON.stringify({ ...current, issuer }) });
    const { context, page } = await newPage(demo);
    try {
      expect((await put(only.issuer)).status).toBe(200);
      await page.goto(`${url}/console?site=${demo.siteKey}`);
      await page.getByRole("button", { name: "Sign in with Clinic ID" }).click();
      await atProvider(page, "olu");
      await page.locator(".top .who").filter({ hasText: "Olu Ade" }).waitFor();
      expect(await page.locator(".top .who").textContent()).toContain("(owner)");
      expect(only.userinfoCalls.count).toBe(1);
    } finally {
      expect((await put(idp.issuer)).status).toBe(200);
      await only.close();
    }
    await context.close();
  });

  it("refuses a callback whose state was changed (401 sso_state)", async () => {
    const { context, page } = await newPage(demo);
    await changeCallbackOnce(page, (b) => ({ ...b, state: b.state.replace(/\.[\w-]+$/, `.${"A".repeat(43)}`) }));
    await toProvider(page);
    await atProvider(page, "mei");
    await refused(page, /took too long, was already finished, or was started in another browser/, "sso_state");
    await context.close();
  });

  it("refuses an id token made for another nonce (401 sso_nonce)", async () => {
    const { context, page } = await newPage(demo);
    await rerouteOnce(page, isAuthorize, (u) => {
      u.searchParams.set("nonce", "n".repeat(43));
      return u.toString();
    });
    await toProvider(page);
    await atProvider(page, "mei");
    await refused(page, /belongs to another sign-in/, "sso_nonce");
    await context.close();
  });

  it("refuses a code that expired before it came back (401 sso_code)", async () => {
    const { context, page } = await newPage(demo);
    idp.codeTtl.seconds = 1;
    await changeCallbackOnce(page, async (b) => {
      await new Promise((r) => setTimeout(r, 2_500));
      return b;
    });
    try {
      await toProvider(page);
      await atProvider(page, "mei");
      await refused(page, /refused to finish this sign-in/, "sso_code");
    } finally {
      idp.codeTtl.seconds = 60;
    }
    await context.close();
  });

  it("refuses an id token from another issuer than the site's (401 sso_issuer)", async () => {
    const current = ((await (await admin("/v1/admin/sso")).json()) as { sso: Record<string, unknown> }).sso;
    const put = (issuer: string) =>
      admin("/v1/admin/sso", { method: "PUT", body: JSON.stringify({ ...current, issuer }) });
    expect((await put(idp.impostor)).status).toBe(200);
    const { context, page } = await newPage(demo);
    try {
      await toProvider(page);
      await atProvider(page, "mei");
      await refused(page, /another identity provider than this site's/, "sso_issuer");
    } finally {
      expect((await put(idp.issuer)).status).toBe(200);
    }
    await context.close();
  });

  it("refuses an e-mail outside the allowed domains (403 sso_domain), in Chinese too", async () => {
    for (const [locale, text] of [
      ["en-US", /does not let in e-mail addresses of your domain/],
      ["zh-CN", /本站点不允许你所在域名的电子邮件地址登录/],
    ] as const) {
      const { context, page } = await newPage(demo, { locale, bypassCSP: true });
      await page.goto(`${url}/console?site=${demo.siteKey}`);
      await page
        .getByRole("button", { name: locale === "en-US" ? "Sign in with Clinic ID" : "使用 Clinic ID 登录" })
        .click();
      await atProvider(page, "eve");
      await refused(page, text, "sso_domain");
      expect(await axeFindings(page), `refused sign-in ${locale}`).toEqual([]);
      if (locale === "zh-CN") await page.screenshot({ path: "test-results/sso-refused-zh.png" });
      await context.close();
    }
  });

  it("refuses a code issued for another sign-in's PKCE challenge (401 sso_code: its verifier differs)", async () => {
    const { context, page } = await newPage(demo);
    // The first sign-in's code is caught on its way back and never reaches the console.
    let stolen = "";
    await changeCallbackOnce(page, (b) => ((stolen = b.code), null));
    await toProvider(page);
    await atProvider(page, "mei");
    await expect.poll(() => stolen).not.toBe("");
    // A second sign-in in the same browser: its callback gets the first one's code.
    await rerouteOnce(page, isAuthorize, (u) => {
      const back = new URL(`${url}/console/sso/callback`);
      back.searchParams.set("code", stolen);
      back.searchParams.set("state", u.searchParams.get("state")!);
      return back.toString();
    });
    await toProvider(page);
    await refused(page, /refused to finish this sign-in/, "sso_code");
    const entry = await lastSignIn();
    expect(entry.code).toBe("sso_code");
    await context.close();
  });
});
