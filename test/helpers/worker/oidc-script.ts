/** Shared by the scripted provider (oidc-issuer-setup.ts, in Node) and the worker tests (in workerd). */

/** The one client every tenant of the scripted provider knows. */
export const TEST_CLIENT = { id: "parley-test", secret: "test-client-secret-0123456789" };

/**
 * What the person's sign-in at the provider yields, given by the test on the authorization request
 * (`as=<json>`, a parameter the worker never sees): the claims, and how the provider misbehaves.
 */
export interface SignInScript {
  claims?: Record<string, unknown>;
  /** What the userinfo endpoint answers for the sign-in's access token (besides `sub`, the id token's unless given). */
  userinfo?: Record<string, unknown>;
  /** The provider answers the browser with this `error` instead of a code. */
  error?: string;
  tweak?: {
    iss?: string;
    aud?: string | string[];
    nonce?: string;
    /** Seconds from now. */
    exp?: number;
    iat?: number;
    authTime?: number;
    /** `none` and `HS256` as a forger would send them; `stranger`: RS256 by a key the JWKS does not hold. */
    alg?: "none" | "HS256";
    key?: "stranger" | "unknown-kid";
    /** The code expires this many ms after it is issued (default 60 s). */
    codeTtlMs?: number;
    /** The userinfo endpoint never answers, answers 500, or answers a signed JWT instead of JSON. */
    userinfo?: "hang" | "error" | "jwt";
  };
}
