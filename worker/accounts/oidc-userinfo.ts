import { ApiError } from "../errors.ts";
import { outboundRefusal, type OutboundPolicy } from "../net/resolved-address.ts";
import { providerUrlProblem, type Discovery } from "./oidc-discovery.ts";

/** The provider answers within this long, or the sign-in stops with `sso_userinfo`. */
export const USERINFO_MS = 5_000;

const failed = (why: string, status: 401 | 502 = 502) =>
  new ApiError(status, "sso_userinfo", `The identity provider's userinfo endpoint ${why}`.slice(0, 400));

/**
 * The claims the provider's userinfo endpoint gives for the sign-in's access token (OpenID Connect
 * Core 5.3). Many providers put some claims only there (Google's, Okta's groups claim when set for
 * userinfo, any provider whose id token carries only what was asked for in it).
 * Its `sub` must be the id token's (5.3.2: the answer could otherwise be another user's); a signed
 * answer (`application/jwt`) is not read. A provider that does not answer in USERINFO_MS, or answers
 * an error, stops the sign-in with `sso_userinfo`.
 */
export async function userinfo(
  doc: Discovery,
  accessToken: string,
  sub: string,
  policy: OutboundPolicy,
): Promise<Record<string, unknown>> {
  const at = doc.userinfo_endpoint ?? "";
  if (!at) throw failed("is not in the provider's discovery document (a claim the id token lacks cannot be read)");
  if (!accessToken) throw failed("needs an access token, and the token endpoint gave none");
  if (providerUrlProblem(at, policy.loopback)) throw failed(`${at} is an address the worker refuses`);
  const resolved = await outboundRefusal(at, policy);
  if (resolved) throw failed(`is refused: ${resolved.message}`);
  let res: Response;
  try {
    res = await fetch(at, {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
      redirect: "manual",
      signal: AbortSignal.timeout(USERINFO_MS),
    });
  } catch (err) {
    const timedOut = err instanceof Error && err.name === "TimeoutError";
    throw failed(
      timedOut ? `did not answer within ${USERINFO_MS / 1000} s` : `did not answer: ${(err as Error).message}`,
    );
  }
  if (!res.ok) throw failed(`answered ${res.status}`, res.status === 401 || res.status === 403 ? 401 : 502);
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("json") || type.includes("jwt")) throw failed(`answered ${type || "no content type"}, not JSON`);
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!body || typeof body !== "object" || Array.isArray(body)) throw failed("answered something that is not JSON");
  if (body.sub !== sub) throw failed("answered for another user than the id token's (its sub differs)", 401);
  return body;
}
