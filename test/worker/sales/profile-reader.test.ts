import { describe, expect, it } from "vitest";
import { sign } from "hono/jwt";
import { auth, call, openSession, SITE_KEY } from "../../helpers/worker/client.ts";
import { putSite } from "../../helpers/worker/sites.ts";
import { signDemoIdentity } from "../../../worker/demo/index.ts";

/**
 * profile_reader scoped to the signed-in rep: the host's signed identity is verified at
 * session open and the rep is bound into the session token; the tool reads only that rep's customers.
 */
const open = (identity?: string, siteKey = SITE_KEY) =>
  call("/v1/sessions", { method: "POST", json: { siteKey, agentId: "sales-coach", identity } });

const readProfile = (token: string, customerId: string) =>
  call("/v1/tools/profile_reader", { method: "POST", headers: auth(token), json: { arguments: { customerId } } });

async function session(identity?: string) {
  const { res } = await open(identity);
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

describe("profile_reader and the rep's signed identity", () => {
  it("reads a customer assigned to the signed-in rep, and not another rep's", async () => {
    const token = await session(await signDemoIdentity("rep-ana"));
    const mine = await readProfile(token, "clinic-sunrise");
    expect(mine.res.status).toBe(200);
    const { result } = (await mine.res.json()) as { result: Record<string, unknown> };
    expect(result).toMatchObject({ customerId: "clinic-sunrise", name: "Sunrise Dermatology" });
    // Who may read it is the worker's business, not the model's.
    expect(result.reps).toBeUndefined();

    const theirs = await readProfile(token, "clinic-harbor");
    expect(theirs.res.status).toBe(403);
    expect(await theirs.res.json()).toEqual({
      error: { code: "forbidden", message: 'Customer "clinic-harbor" is not assigned to this rep' },
    });
    // The other rep reads their own.
    const ben = await session(await signDemoIdentity("rep-ben"));
    expect((await readProfile(ben, "clinic-harbor")).res.status).toBe(200);
    expect((await readProfile(ben, "clinic-sunrise")).res.status).toBe(403);
  });

  it("refuses a forged, an expired and another site's identity at session open", async () => {
    const forged = await sign(
      { sub: "rep-ana", site: SITE_KEY, exp: Math.floor(Date.now() / 1000) + 600 },
      "a-secret-the-host-does-not-have",
      "HS256",
    );
    const cases: Array<[string, string]> = [
      [forged, "its signature does not match the site's identity secret"],
      [await signDemoIdentity("rep-ana", SITE_KEY, -60), "it has expired; the host must sign a fresh one"],
      [await signDemoIdentity("rep-ana", "another-site-key"), "it was signed for another site"],
      ["e30.e30.c2ln", 'it is not a JWT (HS256) with "sub", "site" and "exp"'],
    ];
    for (const [identity, why] of cases) {
      const { res } = await open(identity);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        error: { code: "unauthorized", message: `The signed identity was refused: ${why}` },
      });
    }
  });

  it("a session without a signed identity has no rep: profile_reader says what is missing", async () => {
    // No identity, or a plain visitor id (what the widget's identity option has always taken).
    for (const identity of [undefined, "visitor-42"]) {
      const { res } = await readProfile(await session(identity), "clinic-sunrise");
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/needs a signed-in rep/);
    }
  });

  it("a site that does not verify identities keeps the widget's identity as the visitor's own id", async () => {
    const siteKey = await putSite({ safety: {} });
    const { res } = await open("visitor-42", siteKey);
    expect(res.status).toBe(201);
  });

  it("the demo signer stands in for the host's backend in demo mode only", async () => {
    const { res } = await call("/v1/demo/identity?rep=rep-ana");
    expect(res.status).toBe(200);
    const { identity } = (await res.json()) as { identity: string };
    expect((await open(identity)).res.status).toBe(201);
    expect((await call("/v1/demo/identity?rep=mallory")).res.status).toBe(400);
    expect((await call("/v1/demo/identity?rep=rep-ana", {}, { DEMO_MODE: "" })).res.status).toBe(404);
  });
});
