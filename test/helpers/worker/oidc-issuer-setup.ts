import { createHash, createHmac, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { settled } from "../settled-handler.ts";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { TestProject } from "vitest/node";
import { TEST_CLIENT, type SignInScript } from "./oidc-script.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * A scripted OpenID provider on a loopback socket, one issuer per first path segment:
     * `${oidcIssuerUrl}/<tenant>` (see oidc-issuer-setup.ts for what its endpoints do).
     */
    oidcIssuerUrl: string;
  }
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce: string;
  script: SignInScript;
  expires: number;
  used: boolean;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString("base64url");

function jwt(header: object, payload: object, key: KeyObject | null, alg: string): string {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  if (alg === "none") return `${input}.`;
  if (alg === "HS256") return `${input}.${b64url(createHmac("sha256", "forged").update(input).digest())}`;
  return `${input}.${b64url(sign("sha256", Buffer.from(input), key!))}`;
}

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

/**
 * The provider. Per tenant: discovery (a tenant named `impostor-…` names another issuer in it, one
 * named `plainpkce-…` offers only plain PKCE, `postauth-…` takes the client's secret in the body only),
 * `/jwks`, `/auth` (issues a code at once for the claims in `as`, redirecting to `redirect_uri`),
 * `/token` (client authentication, the code once and unexpired, its redirect URI, PKCE S256),
 * `/userinfo` (the script's `userinfo` claims for the access token the token endpoint gave), `/log`
 * (each token request: how the client authenticated and which fields it sent; each userinfo request).
 */
export default async function setup(project: TestProject) {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  const jwk = { ...publicKey.export({ format: "jwk" }), kid: "k1", alg: "RS256", use: "sig" };
  const grants = new Map<string, Grant>();
  /** Access tokens the token endpoint gave, and the sign-in each is for (what userinfo answers). */
  const accessTokens = new Map<string, { sub: unknown; script: SignInScript }>();
  const log = new Map<string, Array<{ auth: string; fields: string[] }>>();
  let base = "";

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const server = createServer(
    settled(async (req, res) => {
      const url = new URL(req.url ?? "/", base);
      const [, tenant = "", ...rest] = url.pathname.split("/");
      const path = rest.join("/");
      const issuer = `${base}/${tenant}`;
      if (path === ".well-known/openid-configuration")
        return send(res, 200, {
          issuer: tenant.startsWith("impostor-") ? `${base}/somebody-else` : issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          userinfo_endpoint: `${issuer}/userinfo`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: tenant.startsWith("plainpkce-") ? ["plain"] : ["S256"],
          token_endpoint_auth_methods_supported: tenant.startsWith("postauth-")
            ? ["client_secret_post"]
            : ["client_secret_basic", "client_secret_post"],
          id_token_signing_alg_values_supported: ["RS256"],
        });
      if (path === "jwks") return send(res, 200, { keys: [jwk] });
      if (path === "log") return send(res, 200, log.get(tenant) ?? []);
      if (path === "userinfo") {
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
        const seen = log.get(tenant) ?? [];
        seen.push({ auth: "userinfo", fields: [] });
        log.set(tenant, seen);
        const grant = accessTokens.get(bearer);
        if (!grant) return send(res, 401, { error: "invalid_token" });
        const how = grant.script.tweak?.userinfo;
        if (how === "hang") return;
        if (how === "error") return send(res, 500, { error: "server_error" });
        if (how === "jwt") {
          res.writeHead(200, { "content-type": "application/jwt" });
          return res.end("e30.e30.");
        }
        return send(res, 200, { sub: grant.sub, ...grant.script.userinfo });
      }
      if (path === "auth") {
        const q = url.searchParams;
        const script = JSON.parse(q.get("as") ?? "{}") as SignInScript;
        const back = new URL(q.get("redirect_uri") ?? "");
        back.searchParams.set("state", q.get("state") ?? "");
        if (script.error) back.searchParams.set("error", script.error);
        else {
          const code = b64url(randomBytes(24));
          grants.set(code, {
            clientId: q.get("client_id") ?? "",
            redirectUri: q.get("redirect_uri") ?? "",
            challenge: q.get("code_challenge_method") === "S256" ? (q.get("code_challenge") ?? "") : "",
            nonce: q.get("nonce") ?? "",
            script,
            expires: Date.now() + (script.tweak?.codeTtlMs ?? 60_000),
            used: false,
          });
          back.searchParams.set("code", code);
        }
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (path === "token" && req.method === "POST") {
        const f = await form(req);
        const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
        const [id, secret] = basic
          ? Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent)
          : [f.get("client_id"), f.get("client_secret")];
        const seen = log.get(tenant) ?? [];
        seen.push({ auth: basic ? "basic" : "post", fields: [...f.keys()].sort() });
        log.set(tenant, seen);
        if (id !== TEST_CLIENT.id || secret !== TEST_CLIENT.secret) return send(res, 401, { error: "invalid_client" });
        const grant = grants.get(f.get("code") ?? "");
        const invalid = (why: string) => send(res, 400, { error: "invalid_grant", error_description: why });
        if (!grant || grant.used) return invalid("unknown or used code");
        grant.used = true;
        if (grant.expires <= Date.now()) return invalid("the code has expired");
        if (grant.redirectUri !== f.get("redirect_uri")) return invalid("redirect_uri mismatch");
        const verifier = f.get("code_verifier") ?? "";
        const digest = verifier ? b64url(createHash("sha256").update(verifier).digest()) : "";
        if (!grant.challenge || digest !== grant.challenge) return invalid("PKCE verification failed");
        const t = grant.script.tweak ?? {};
        const now = Math.floor(Date.now() / 1000);
        const payload = {
          iss: t.iss ?? issuer,
          aud: t.aud ?? grant.clientId,
          sub: "user-1",
          nonce: t.nonce ?? grant.nonce,
          exp: now + (t.exp ?? 300),
          iat: now + (t.iat ?? 0),
          ...(t.authTime !== undefined ? { auth_time: now + t.authTime } : {}),
          ...grant.script.claims,
        };
        const alg = t.alg ?? "RS256";
        const kid = t.key === "unknown-kid" ? "k9" : "k1";
        const token = jwt({ alg, typ: "JWT", kid }, payload, t.key === "stranger" ? stranger : privateKey, alg);
        const accessToken = b64url(randomBytes(24));
        accessTokens.set(accessToken, { sub: (payload as { sub: unknown }).sub, script: grant.script });
        return send(res, 200, { access_token: accessToken, token_type: "Bearer", expires_in: 300, id_token: token });
      }
      send(res, 404, { error: "not_found" });
    }),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  project.provide("oidcIssuerUrl", base);
  return async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
}
