import { outboundUrlProblem } from "./outbound-url.ts";

/** Cloudflare's DNS over HTTPS, JSON form: what a deployed worker asks unless DNS_RESOLVER_URL names another. */
export const DEFAULT_RESOLVER = "https://cloudflare-dns.com/dns-query";
const RESOLVE_TIMEOUT_MS = 3_000;
/** Answers are kept for their TTL, but never longer than this, and at most this many names. */
const MAX_CACHE_MS = 5 * 60_000;
const MAX_CACHED = 500;
const DNS_TYPES = { A: 1, AAAA: 28 } as const;

/** How the worker may reach an address a site configured: loopback (demo mode) and the resolver to ask, if any. */
export interface OutboundPolicy {
  loopback: boolean;
  /** null: names are not resolved first (demo mode without DNS_RESOLVER_URL, which runs offline). */
  resolver: string | null;
}

export function outboundPolicy(env: { DNS_RESOLVER_URL?: string; demo?: unknown }): OutboundPolicy {
  const demo = Boolean(env.demo);
  return { loopback: demo, resolver: env.DNS_RESOLVER_URL || (demo ? null : DEFAULT_RESOLVER) };
}

/** Why the worker will not send to a URL: `forbidden` (the address) or `dns_unavailable` (no answer to check). */
export interface OutboundRefusal {
  code: "forbidden" | "dns_unavailable";
  message: string;
}

const answers = new Map<string, { until: number; problem: string | null }>();

/**
 * The URL's own check (outbound-url.ts), then, for a name, what DNS answers for it: a name whose A or
 * AAAA answer holds any non-public address (a rebinding name, `localtest.me`, an internal name in
 * public DNS) is refused as that address would be. A resolver that cannot be asked refuses too (fail
 * closed). Answers are cached for their TTL. fetch resolves the name again itself, so a name that
 * changes its answer between the two lookups is not caught here; see docs/security.md.
 */
export async function outboundRefusal(raw: string, policy: OutboundPolicy): Promise<OutboundRefusal | null> {
  const literal = outboundUrlProblem(raw, policy.loopback);
  if (literal) return { code: "forbidden", message: literal };
  const host = new URL(raw).hostname.toLowerCase().replace(/\.$/, "");
  if (!policy.resolver || host.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return null;
  const key = `${policy.resolver}\n${policy.loopback}\n${host}`;
  const hit = answers.get(key);
  if (hit && hit.until > Date.now()) return hit.problem ? { code: "forbidden", message: hit.problem } : null;
  let found: Array<{ address: string; ttl: number }>;
  try {
    const [a, aaaa] = await Promise.all([resolve(policy.resolver, host, "A"), resolve(policy.resolver, host, "AAAA")]);
    found = [...a, ...aaaa];
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { code: "dns_unavailable", message: `${host} could not be checked: the DNS resolver ${why}`.slice(0, 300) };
  }
  const problem = found.length ? addressProblem(host, found, policy.loopback) : `${host} has no A or AAAA record`;
  const ttl = Math.min(MAX_CACHE_MS, ...found.map((f) => f.ttl * 1000));
  if (answers.size >= MAX_CACHED) answers.delete(answers.keys().next().value!);
  if (ttl > 0) answers.set(key, { until: Date.now() + ttl, problem });
  return problem ? { code: "forbidden", message: problem } : null;
}

function addressProblem(host: string, found: Array<{ address: string }>, loopback: boolean): string | null {
  for (const { address } of found) {
    const url = address.includes(":") ? `https://[${address}]/` : `https://${address}/`;
    const why = outboundUrlProblem(url, loopback);
    if (why) return `${host} resolves to ${address}: ${why}`;
  }
  return null;
}

/** One DNS-over-HTTPS question (JSON form); CNAMEs in the answer are followed by the resolver, so only A/AAAA count. */
async function resolve(resolver: string, host: string, type: keyof typeof DNS_TYPES) {
  const url = `${resolver}?name=${encodeURIComponent(host)}&type=${type}`;
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: "application/dns-json" },
      redirect: "manual",
      signal: AbortSignal.timeout(RESOLVE_TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    throw new Error(timedOut ? `did not answer within ${RESOLVE_TIMEOUT_MS} ms` : "could not be reached");
  }
  if (!res.ok) throw new Error(`answered HTTP ${res.status}`);
  const body = (await res.json().catch(() => null)) as {
    Status?: unknown;
    Answer?: Array<{ type?: unknown; TTL?: unknown; data?: unknown }>;
  } | null;
  // NOERROR and NXDOMAIN are answers; SERVFAIL, REFUSED and others leave the name unchecked.
  if (!body || (body.Status !== 0 && body.Status !== 3)) throw new Error("gave no usable answer");
  return (body.Answer ?? [])
    .filter((r) => r.type === DNS_TYPES[type] && typeof r.data === "string")
    .map((r) => ({ address: String(r.data), ttl: typeof r.TTL === "number" ? r.TTL : 0 }));
}
