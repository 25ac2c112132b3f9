import { afterEach, describe, expect, it } from "vitest";
import { clearConfigCache } from "../../../worker/config/config-store.ts";
import { accountsSite, json, member, withKey } from "../../helpers/worker/accounts.ts";
import { receiver, verified, waitFor } from "../../helpers/worker/webhooks.ts";

/**
 * A webhook's signing secret is answered whole once, by the call that makes it (creating the endpoint,
 * rotating its secret), as Stripe and Svix do; every later answer shows a hint (`whsec_…` and its last
 * four characters). A console session left open cannot read it back and forge or read deliveries.
 */
afterEach(() => clearConfigCache());

const SECRET = /^whsec_[A-Za-z0-9+/=]{32}$/;
const hintOf = (secret: string) => `whsec_…${secret.slice(-4)}`;

describe("a webhook's signing secret", () => {
  it("is answered whole by the create and rotate calls only; the list and a change show its hint", async () => {
    const siteKey = await accountsSite();
    const r = receiver();
    const created = await withKey(siteKey, "POST", "/v1/admin/webhooks", { url: r.url });
    expect(created.status).toBe(201);
    const ep = (await json(created)).endpoint;
    expect(ep.secret).toMatch(SECRET);
    expect(ep.secretHint).toBe(hintOf(ep.secret));

    // An owner's console session, signed in a moment ago, reads the list: the hint, never the secret.
    const { browser: ana } = await member(siteKey, "owner", "Ana");
    const listed = await (await ana.get("/v1/admin/webhooks")).text();
    expect(listed).not.toContain(ep.secret);
    expect(JSON.parse(listed).endpoints).toEqual([
      {
        id: ep.id,
        url: r.url,
        events: ep.events,
        description: "",
        secretHint: hintOf(ep.secret),
        previousSecretUntil: null,
        createdAt: ep.createdAt,
      },
    ]);
    const changed = await ana.send("PUT", `/v1/admin/webhooks/${ep.id}`, { url: r.url, description: "CRM" });
    expect(changed.status).toBe(200);
    const changedText = await changed.text();
    expect(changedText).not.toContain(ep.secret);
    expect(JSON.parse(changedText).endpoint).not.toHaveProperty("secret");

    const rotated = await ana.send("POST", `/v1/admin/webhooks/${ep.id}/rotate`, { overlapMinutes: 0 });
    expect(rotated.status).toBe(200);
    const next = (await json(rotated)).endpoint;
    expect(next.secret).toMatch(SECRET);
    expect(next.secret).not.toBe(ep.secret);
    const after = await (await withKey(siteKey, "GET", "/v1/admin/webhooks")).text();
    expect(after).not.toContain(next.secret);
    expect(JSON.parse(after).endpoints[0].secretHint).toBe(hintOf(next.secret));

    // The secret the rotation showed is the one deliveries are signed with.
    expect((await ana.send("POST", `/v1/admin/webhooks/${ep.id}/test`)).status).toBe(202);
    const [hook] = await waitFor(r.log, (log) => log.length > 0);
    expect(verified(hook, next.secret).type).toBe("webhook.test");
  });
});
