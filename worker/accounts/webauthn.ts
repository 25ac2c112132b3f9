import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { ApiError } from "../errors.ts";
import type { StoredPasskey } from "./passkey-store.ts";

/**
 * Passkeys through @simplewebauthn/server, which runs on the Workers runtime's WebCrypto. The relying
 * party is the worker's own host (the console is served from it): a passkey made on the console of
 * one deployment is useless to another's, and the browser refuses to use it from any other page.
 * Every answer must show user verification (a PIN, a fingerprint): a passkey stands in for a password
 * and a second factor at once. The library (with its ASN.1 and X.509 code) is imported on the first
 * passkey step, not when an isolate starts: most requests never need it.
 */
const lib = () => import("@simplewebauthn/server");
export interface RelyingParty {
  rpID: string;
  origin: string;
}

export const relyingParty = (url: string): RelyingParty => {
  const u = new URL(url);
  return { rpID: u.hostname, origin: u.origin };
};

export const registrationOptions = async (
  rp: RelyingParty,
  user: { id: string; name: string },
  exclude: Array<{ id: string; transports: string[] }> = [],
) =>
  (await lib()).generateRegistrationOptions({
    rpName: "Parley console",
    rpID: rp.rpID,
    userID: new Uint8Array(new TextEncoder().encode(user.id)),
    userName: user.name,
    userDisplayName: user.name,
    attestationType: "none",
    excludeCredentials: exclude,
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });

export const authenticationOptions = async (rp: RelyingParty) =>
  (await lib()).generateAuthenticationOptions({ rpID: rp.rpID, userVerification: "required" });

/** The challenge an answer says it signs (read from its client data), so the site's object can take it. */
export function challengeOf(response: { response: { clientDataJSON: string } }): string {
  try {
    const b64 = response.response.clientDataJSON.replace(/-/g, "+").replace(/_/g, "/");
    const data = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)))) as {
      challenge?: unknown;
    };
    return typeof data.challenge === "string" ? data.challenge : "";
  } catch {
    return "";
  }
}

const invalid = (why: string) => new ApiError(401, "passkey_invalid", `The passkey's answer does not verify: ${why}`);
const reason = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 200);

export async function verifyRegistration(
  rp: RelyingParty,
  response: unknown,
  challenge: string,
  accountId: string,
): Promise<StoredPasskey> {
  let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    result = await (
      await lib()
    ).verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
    });
  } catch (err) {
    throw invalid(reason(err));
  }
  if (!result.verified) throw invalid("not verified");
  const { credential } = result.registrationInfo;
  return {
    id: credential.id,
    accountId,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? [],
  };
}

/**
 * Checks a sign-in's signature against the stored public key, and answers its new counter. The
 * library's own counter check is off (counter 0 given): the caller refuses a counter that went
 * backwards under its own code, after the signature shows the answer came from this passkey.
 */
export async function verifyAssertion(
  rp: RelyingParty,
  response: unknown,
  challenge: string,
  passkey: StoredPasskey,
): Promise<number> {
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await (
      await lib()
    ).verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: 0,
        transports: passkey.transports as never,
      },
      requireUserVerification: true,
    });
  } catch (err) {
    throw invalid(reason(err));
  }
  if (!result.verified) throw invalid("not verified");
  return result.authenticationInfo.newCounter;
}
