import { ApiError } from "../errors.ts";
import { providerUrlProblem, type Discovery } from "./oidc-discovery.ts";
import { outboundRefusal, type OutboundPolicy } from "../net/resolved-address.ts";

const FETCH_MS = 10_000;

export interface CodeExchange {
  code: string;
  redirectUri: string;
  /** PKCE: the provider checks its S256 digest against the challenge the sign-in began with. */
  verifier: string;
  clientId: string;
  clientSecret: string;
}

/** RFC 6749 2.3.1: each part form-encoded before the Basic header joins them. */
const formPart = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");

/** The token endpoint's answer: the id token, and the access token the userinfo endpoint takes ("" if none). */
export interface Tokens {
  idToken: string;
  accessToken: string;
}

/**
 * Trades the authorization code for the id token (and access token) at the provider's token endpoint, the worker
 * authenticating as the site's client (HTTP Basic, the default, or in the body where the provider
 * takes only that). The provider refuses a code that expired, was used, or whose PKCE verifier does
 * not match: that refusal is `sso_code`; a provider that does not answer is `sso_unreachable`.
 */
export async function exchangeCode(doc: Discovery, x: CodeExchange, policy: OutboundPolicy): Promise<Tokens> {
  const unreachable = (why: string) =>
    new ApiError(502, "sso_unreachable", `The identity provider's token endpoint ${why}`.slice(0, 400));
  if (providerUrlProblem(doc.token_endpoint, policy.loopback)) throw unreachable("is an address the worker refuses");
  const resolved = await outboundRefusal(doc.token_endpoint, policy);
  if (resolved) throw unreachable(`is refused: ${resolved.message}`);
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: x.code,
    redirect_uri: x.redirectUri,
    code_verifier: x.verifier,
  });
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  const methods = doc.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  if (!methods.includes("client_secret_basic") && methods.includes("client_secret_post")) {
    body.set("client_id", x.clientId);
    body.set("client_secret", x.clientSecret);
  } else headers.authorization = `Basic ${btoa(`${formPart(x.clientId)}:${formPart(x.clientSecret)}`)}`;
  let res: Response;
  try {
    res = await fetch(doc.token_endpoint, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(FETCH_MS),
    });
  } catch (err) {
    throw unreachable(`did not answer: ${err instanceof Error ? err.message : String(err)}`);
  }
  const answer = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.status >= 400 && res.status < 500) {
    const code = typeof answer?.error === "string" ? answer.error.slice(0, 60) : String(res.status);
    const said = typeof answer?.error_description === "string" ? `: ${answer.error_description.slice(0, 200)}` : "";
    throw new ApiError(401, "sso_code", `The identity provider refused the sign-in's code (${code}${said})`);
  }
  if (!res.ok) throw unreachable(`answered ${res.status}`);
  if (typeof answer?.id_token !== "string") throw unreachable("answered no id token");
  const bearer = typeof answer.token_type !== "string" || answer.token_type.toLowerCase() === "bearer";
  const accessToken = bearer && typeof answer.access_token === "string" ? answer.access_token : "";
  return { idToken: answer.id_token, accessToken };
}
