import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/**
 * A real OpenID provider for end-to-end tests: panva's `oidc-provider` (OpenID certified), on
 * 127.0.0.1 with its own development login and consent pages, which Chromium fills in. Its people
 * are below; any password is taken. `codeTtl` is the authorization code's life in seconds (a test
 * shortens it to see an expired code). `impostor` is a second address whose discovery document
 * claims to be an issuer of its own while pointing at this provider's endpoints, so the id tokens a
 * sign-in through it gets come from another issuer than the one the site was set up with.
 */
export const PEOPLE: Record<string, { email: string; name: string; groups: string[] }> = {
  mei: { email: "mei@clinic.example", name: "Mei Chen", groups: ["parley-staff"] },
  olu: { email: "olu@clinic.example", name: "Olu Ade", groups: ["parley-owners"] },
  eve: { email: "eve@elsewhere.example", name: "Eve", groups: ["parley-owners"] },
  // In no mapped group: her role is the one an owner chose.
  ana: { email: "ana@clinic.example", name: "Ana Lima", groups: [] },
};

export interface LocalProvider {
  issuer: string;
  /** Requests its userinfo endpoint (`/me`) answered. */
  userinfoCalls: { count: number };
  impostor: string;
  client: { id: string; secret: string };
  codeTtl: { seconds: number };
  close(): Promise<void>;
}

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** The client's secret, as the worker holds it under OIDC_CLIENT_SECRET_ENV (the e2e run's worker does). */
export const OIDC_CLIENT_SECRET = "e2e-client-secret-0123456789abcdef";
export const OIDC_CLIENT_SECRET_ENV = "OIDC_E2E_SECRET";

/**
 * `claimsOnlyInUserinfo`: the id token carries only `sub` and what OpenID Connect requires; the
 * e-mail, name and groups the scopes ask for come from the userinfo endpoint only (oidc-provider's
 * `conformIdTokenClaims`, OIDC Core 5.4), as Google's and an Entra ID token with many groups do.
 */
export async function startOidcProvider(
  redirectUri: string,
  opts: { claimsOnlyInUserinfo?: boolean } = {},
): Promise<LocalProvider> {
  const client = { id: "parley-console", secret: OIDC_CLIENT_SECRET };
  const codeTtl = { seconds: 60 };
  const server = createServer();
  const issuer = await listen(server);
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    // Every client must use PKCE (by default only public clients must): a code without it is refused.
    pkce: { required: () => true },
    scopes: ["openid", "email", "profile", "groups"],
    claims: { email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    // By default the claims go in the id token itself, as Okta and Keycloak put them there.
    conformIdTokenClaims: Boolean(opts.claimsOnlyInUserinfo),
    ttl: {
      AuthorizationCode: () => codeTtl.seconds,
      AccessToken: 300,
      IdToken: 300,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
    },
    cookies: { keys: ["e2e-cookie-key-0123456789"] },
    async findAccount(_ctx, id) {
      const person = PEOPLE[id];
      if (!person) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...person, email_verified: true }) };
    },
  });
  const userinfoCalls = { count: 0 };
  const callback = provider.callback();
  server.on("request", (req, res) => {
    if (new URL(req.url ?? "/", issuer).pathname === "/me") userinfoCalls.count++;
    return callback(req, res);
  });

  const metadata = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
  const fake = createServer((req, res) => {
    res.writeHead(req.url === "/.well-known/openid-configuration" ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify({ ...metadata, issuer: impostor }));
  });
  const impostor = await listen(fake);

  const close = async () => {
    for (const s of [server, fake]) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  };
  return { issuer, userinfoCalls, impostor, client, codeTtl, close };
}
