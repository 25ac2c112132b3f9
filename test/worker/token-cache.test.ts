import { afterEach, describe, expect, it, vi } from "vitest";
import { signToken, verifyToken } from "../../worker/session/token.ts";

afterEach(() => vi.restoreAllMocks());

const SECRET = "token-cache-secret-0123456789abcdef";
const claims = (expInS: number) => ({
  sid: crypto.randomUUID(),
  site: "s",
  agent: "a",
  exp: Math.floor(Date.now() / 1000) + expInS,
});

describe("verified session tokens are kept per isolate", () => {
  it("a token verified once is not verified (HMAC) again", async () => {
    const token = await signToken(claims(600), SECRET);
    const hmac = vi.spyOn(crypto.subtle, "verify");
    expect((await verifyToken(token, SECRET)).ok).toBe(true);
    expect((await verifyToken(token, SECRET)).ok).toBe(true);
    expect(hmac).toHaveBeenCalledTimes(1);
  });

  it("a kept token still expires at its exp", async () => {
    const token = await signToken(claims(60), SECRET);
    expect((await verifyToken(token, SECRET)).ok).toBe(true);
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now + 61_000);
    expect(await verifyToken(token, SECRET)).toEqual({ ok: false, reason: "expired" });
  });

  it("a kept token is checked again under another secret, and a forged one is never kept", async () => {
    const token = await signToken(claims(600), SECRET);
    expect((await verifyToken(token, SECRET)).ok).toBe(true);
    expect(await verifyToken(token, `${SECRET}-rotated`)).toEqual({ ok: false, reason: "bad_signature" });
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await verifyToken(forged, SECRET)).ok).toBe(false);
    expect((await verifyToken(forged, SECRET)).ok).toBe(false);
  });
});
