import { inject } from "vitest";
import type { SsoConfigInput } from "../../../shared/config/sso-config.ts";
import { forgetProviders } from "../../../worker/accounts/oidc-discovery.ts";
import { accountsSite, at, freshIp, withKey } from "./accounts.ts";
import { call } from "./client.ts";
import { TEST_CLIENT, type SignInScript } from "./oidc-script.ts";

/** Single sign-on in worker tests, against the scripted provider (oidc-issuer-setup.ts). */
export const SECRET_ENV = "OIDC_TEST_SECRET";

/** An issuer of its own for a test (the worker keeps providers' documents per isolate): `<kind>-<random>`. */
export const issuerFor = (kind = "idp") => `${inject("oidcIssuerUrl")}/${kind}-${crypto.randomUUID().slice(0, 8)}`;

export const ssoConfig = (issuer: string, more: Partial<SsoConfigInput> = {}): SsoConfigInput => ({
  name: "Clinic ID",
  issuer,
  clientId: TEST_CLIENT.id,
  clientSecretEnv: SECRET_ENV,
  allowedDomains: ["clinic.example"],
  roleClaim: "groups",
  roleMap: [
    { value: "parley-owners", role: "owner" },
    { value: "parley-editors", role: "editor" },
    { value: "parley-staff", role: "staff" },
  ],
  defaultRole: "refuse",
  ...more,
});

/** A site with its bootstrap key and this single sign-on, set through the owner's route. */
export async function ssoSite(config: SsoConfigInput = ssoConfig(issuerFor())): Promise<string> {
  forgetProviders();
  const siteKey = await accountsSite();
  const res = await withKey(siteKey, "PUT", "/v1/admin/sso", config);
  if (res.status !== 200) throw new Error(`ssoSite: ${res.status} ${await res.text()}`);
  return siteKey;
}

const post = async (path: string, body: unknown, cookie = "") =>
  (await call(at(path), { method: "POST", json: body, headers: { "cf-connecting-ip": freshIp(), cookie } })).res;

/** The start: the provider's address, and the browser's binding cookie (`name=value`). */
export async function startSso(siteKey: string, cookie = "", fresh?: boolean) {
  const res = await post("/v1/console/sso/start", { siteKey, ...(fresh ? { fresh } : {}) }, cookie);
  if (res.status !== 200) throw new Error(`startSso: ${res.status} ${await res.text()}`);
  const url = new URL(((await res.json()) as { url: string }).url);
  const set = res.headers.get("set-cookie")?.split(";")[0] ?? "";
  return { url, cookie: set || cookie };
}

/** The person signs in at the provider, which sends the browser back: what the callback page reads. */
export async function atProvider(url: URL, script: SignInScript = {}) {
  const go = new URL(url);
  go.searchParams.set("as", JSON.stringify(script));
  const res = await fetch(go, { redirect: "manual" });
  const back = new URL(res.headers.get("location") ?? "");
  const q = back.searchParams;
  return {
    back,
    state: q.get("state") ?? "",
    ...(q.get("code") ? { code: q.get("code")! } : {}),
    ...(q.get("error") ? { error: q.get("error")! } : {}),
  };
}

/** The console's callback page posting what the provider sent back. */
export const finishSso = (body: Record<string, unknown>, cookie: string) =>
  post("/v1/console/sso/callback", body, cookie);

/** A whole sign-in of a person with these claims (by default Ana, a verified clinic address in the staff group). */
export async function ssoSignIn(siteKey: string, script: SignInScript = {}) {
  const { url, cookie } = await startSso(siteKey);
  const claims = { email: "ana@clinic.example", email_verified: true, name: "Ana", groups: ["parley-staff"] };
  const back = await atProvider(url, { ...script, claims: { ...claims, ...script.claims } });
  const res = await finishSso({ state: back.state, code: back.code, error: back.error }, cookie);
  return { res, url, cookie, back };
}

/** What the scripted provider's token endpoint saw of this issuer's client. */
export const tokenLog = async (issuer: string) =>
  (await (await fetch(`${issuer}/log`)).json()) as Array<{ auth: string; fields: string[] }>;
