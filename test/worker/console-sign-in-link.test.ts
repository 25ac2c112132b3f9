import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { call, ORIGIN } from "../helpers/worker/client.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { signInLinkKey, tokenDigest } from "../../worker/console/sign-in-link.ts";

afterEach(() => clearConfigCache());

/**
 * The one-time sign-in link `npm run deploy` prints for a new site's owner: KV holds its token's
 * digest; the first sign-in with it opens a console session, any later one is refused.
 */
const at = (path: string) => `${ORIGIN}${path}`;
const token = () =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32)))).replace(/[+/=]/g, (ch) =>
    ch === "+" ? "-" : ch === "/" ? "_" : "",
  );

async function link(siteKey: string, expiresAt = Date.now() + 3_600_000): Promise<string> {
  const t = token();
  await env.CONFIG.put(signInLinkKey(await tokenDigest(t)), JSON.stringify({ site: siteKey, expiresAt }));
  return t;
}

async function signIn(signInLink: string, headers: Record<string, string> = {}) {
  const { res } = await call(at("/v1/console/session"), { method: "POST", json: { signInLink }, headers });
  return { res, body: (await res.json()) as any };
}

describe("a one-time console sign-in link", () => {
  it("signs the owner in once; the same link is refused after, and its KV entry goes", async () => {
    const siteKey = await putSite({ adminKeySha256: await sha256Hex("owner-key-" + "l".repeat(20)) });
    const t = await link(siteKey);
    const first = await signIn(t);
    expect(first.res.status).toBe(200);
    expect(first.body).toEqual({
      site: siteKey,
      csrf: expect.any(String),
      expiresAt: expect.any(Number),
      who: { kind: "bootstrap", id: "bootstrap", name: "Owner", role: "owner" },
    });
    const cookie = first.res.headers.get("set-cookie")!.split(";")[0];
    const listed = await call(at("/v1/admin/site"), { headers: { cookie } });
    expect(listed.res.status).toBe(200);

    const again = await signIn(t);
    expect(again.res.status).toBe(401);
    expect(again.body.error.code).toBe("unauthorized");
    expect(again.res.headers.get("set-cookie")).toBeNull();
    await expect.poll(async () => env.CONFIG.get(signInLinkKey(await tokenDigest(t)))).toBeNull();
  });

  it("refuses an unknown, expired or malformed link, a site without an admin key, and another origin", async () => {
    const siteKey = await putSite({ adminKeySha256: await sha256Hex("owner-key-" + "m".repeat(20)) });
    expect((await signIn(token())).res.status).toBe(401);
    expect((await signIn(await link(siteKey, Date.now() - 1))).res.status).toBe(401);
    expect((await signIn("not a token")).res.status).toBe(401);
    const keyless = await putSite({ adminKeySha256: undefined });
    expect((await signIn(await link(keyless))).res.status).toBe(401);
    const t = await link(siteKey);
    const elsewhere = await signIn(t, { origin: "https://evil.example" });
    expect(elsewhere.res.status).toBe(403);
    // Refused before it was spent: the owner's own page still signs in with it.
    expect((await signIn(t)).res.status).toBe(200);
  });
});
