/**
 * Why a webhook URL is refused, or null. The worker sends these requests itself, so an owner's URL
 * must not reach what sits beside the worker: loopback, private, link-local (cloud metadata) and
 * other non-public addresses are refused, as are credentials in the URL (they would be logged and
 * shown; the signature is the authentication). `loopback`: demo and test mode, where receivers run
 * on 127.0.0.1; private and link-local addresses stay refused there too. The URL parser has already
 * turned other spellings of an address (`http://2130706433/`, `0x7f.1`) into dotted form.
 */
export function endpointUrlProblem(raw: string, loopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL: write it as https://hooks.example.com/parley";
  }
  if (url.username || url.password) return "credentials in the URL are refused: the signature authenticates";
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an https:// URL";
  const host = url.hostname.toLowerCase();
  const local = isLoopback(host);
  if (local) return loopback ? null : "loopback addresses are refused (allowed in local demo mode only)";
  if (url.protocol !== "https:") return "must start with https://";
  const why = nonPublicHost(host);
  return why ? `${why} addresses are refused: the endpoint must be reachable on the public internet` : null;
}

function isLoopback(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost") || host === "[::1]") return true;
  const v4 = ipv4(host) ?? mappedIpv4(host);
  return v4 !== null && v4[0] === 127;
}

function ipv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m ? m.slice(1).map(Number) : null;
}

/** `[::ffff:a.b.c.d]`, which the URL parser writes as `[::ffff:xxxx:xxxx]`. */
function mappedIpv4(host: string): number[] | null {
  const m = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (!m) return null;
  const [hi, lo] = [parseInt(m[1], 16), parseInt(m[2], 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255];
}

function nonPublicHost(host: string): string | null {
  if (host.endsWith(".local") || host.endsWith(".internal") || (!host.includes(".") && !host.startsWith("[")))
    return "local network name";
  const v4 = ipv4(host) ?? mappedIpv4(host);
  if (v4) {
    const [a, b] = v4;
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
    if (a === 169 && b === 254) return "link-local";
    if (a === 0 || (a === 100 && b >= 64 && b <= 127) || a >= 224) return "reserved";
    return null;
  }
  if (!host.startsWith("[")) return null;
  const v6 = host.slice(1, -1);
  if (v6 === "::") return "reserved";
  if (/^f[cd][0-9a-f]{0,2}:/.test(v6)) return "private";
  if (/^fe[89ab][0-9a-f]?:/.test(v6)) return "link-local";
  if (/^ff/.test(v6)) return "reserved";
  return null;
}
