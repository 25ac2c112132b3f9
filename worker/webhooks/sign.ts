/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 over
 * `${webhook-id}.${webhook-timestamp}.${body}` with the endpoint's secret, `whsec_` + base64 of its
 * bytes. Several signatures go space-separated in one header, which is how a rotation keeps the old
 * secret valid: receivers accept a message when any of them verifies.
 */
const PREFIX = "whsec_";

function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

/** A new secret: 24 random bytes, as the specification's `whsec_` form. */
export function newWebhookSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(24)));
}

async function sign(secret: string, content: string): Promise<string> {
  const raw = Uint8Array.from(atob(secret.slice(PREFIX.length)), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(content));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** The three headers of one attempt; `secrets` in order, the current one first. */
export async function webhookHeaders(
  messageId: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): Promise<Record<string, string>> {
  const content = `${messageId}.${timestampSeconds}.${body}`;
  const signatures = await Promise.all(secrets.map((s) => sign(s, content)));
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": signatures.join(" "),
  };
}

/** Whether a delivery verifies against any of `secrets`, as a receiver checks it (the demo's receiver does). */
export async function verifyWebhook(headers: Headers, body: string, secrets: readonly string[]): Promise<boolean> {
  const id = headers.get("webhook-id");
  const timestamp = headers.get("webhook-timestamp");
  const given = new Set((headers.get("webhook-signature") ?? "").split(" "));
  if (!id || !timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = await Promise.all(secrets.map((s) => sign(s, `${id}.${timestamp}.${body}`)));
  return expected.some((sig) => given.has(sig));
}
