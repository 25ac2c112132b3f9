import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api, ApiFailure, onFreshSignIn, session } from "../../console/api.ts";
import * as ROUTES from "../../shared/wire/routes.ts";

/** The worker's answers, in order: a step that asks for a fresh sign-in, then what the retry gets. */
function worker(...answers: Response[]) {
  const asked: string[] = [];
  vi.stubGlobal("fetch", async (url: URL) => {
    asked.push(url.pathname);
    return answers.shift()!;
  });
  return asked;
}
const reauth = () => Response.json({ error: { code: "reauth_required", message: "Sign in again" } }, { status: 403 });

beforeEach(() => {
  vi.stubGlobal("location", { origin: "https://console.example" });
});
afterEach(() => {
  vi.unstubAllGlobals();
  session.value = null;
});

describe("a console step that asks for a fresh sign-in", () => {
  it("asks an account for its passkey once, through the sign-in the entry point set, and tries again", async () => {
    const signIn = vi.fn(async () => {});
    onFreshSignIn(signIn);
    session.value = {
      site: "site-1",
      csrf: "c",
      expiresAt: Date.now() + 60_000,
      who: { kind: "account", id: "a1", name: "Mei", role: "owner" },
    };
    const asked = worker(reauth(), Response.json({ ok: true }));
    expect(await api.get(ROUTES.adminMe)).toEqual({ ok: true });
    expect(signIn).toHaveBeenCalledExactlyOnceWith("site-1");
    expect(asked).toEqual([ROUTES.adminMe, ROUTES.adminMe]);
  });

  it("answers the refusal to a session of the admin key, which has no passkey to ask for", async () => {
    const signIn = vi.fn(async () => {});
    onFreshSignIn(signIn);
    session.value = {
      site: "site-1",
      csrf: "c",
      expiresAt: Date.now() + 60_000,
      who: { kind: "bootstrap", id: "b", name: "Admin key", role: "owner" },
    };
    worker(reauth());
    const err = await api.get(ROUTES.adminMe).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiFailure);
    expect((err as ApiFailure).code).toBe("reauth_required");
    expect(signIn).not.toHaveBeenCalled();
  });
});
