/**
 * Why a URL the worker would send requests to on an owner's behalf (a webhook endpoint, an MCP
 * server) is refused, or null. The worker's requests must not reach what sits beside it: loopback,
 * private, link-local (cloud metadata) and other non-public addresses are refused, however they are
 * spelled, as are credentials in the URL (they would be logged and shown). `loopback`: demo and test
 * mode, where receivers and servers run on 127.0.0.1; private and link-local addresses stay refused
 * there too. The URL parser has already turned other spellings of an IPv4 address
 * (`http://2130706433/`, `0x7f.1`, `0177.0.0.1`, `127.1`) into dotted form.
 */
export function outboundUrlProblem(raw: string, loopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL: write it as https://hooks.example.com/parley";
  }
  if (url.username || url.password) return "credentials in the URL are refused: keep them in a worker secret";
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an https:// URL";
  // A name's trailing dot (`localhost.`, `metadata.google.internal.`) names the same host.
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const local = isLoopback(host);
  if (local) return loopback ? null : "loopback addresses are refused (allowed in local demo mode only)";
  const why = nonPublicHost(host);
  if (why) return `${why} are refused: the address must be reachable on the public internet`;
  return url.protocol === "https:" ? null : "must start with https://";
}

type V4 = [number, number, number, number];

function isLoopback(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost") || host === "[::1]") return true;
  const v4 = ipv4(host) ?? embeddedIpv4(host);
  return v4 !== null && v4[0] === 127;
}

function ipv4(host: string): V4 | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m ? (m.slice(1).map(Number) as V4) : null;
}

/**
 * An IPv4 address inside an IPv6 one, as the URL parser writes it (`[::ffff:7f00:1]`): mapped
 * (`::ffff:0:0/96`), the old compatible form (`::a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4
 * (`2002:AABB:CCDD::/48`) all reach the IPv4 address they carry.
 */
function embeddedIpv4(host: string): V4 | null {
  const m =
    /^\[(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host) ??
    /^\[2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::[0-9a-f:]*)?\]$/.exec(host);
  if (!m) return null;
  const [hi, lo] = [parseInt(m[1]!, 16), parseInt(m[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255];
}

/**
 * An IPv4 address a name spells out (`10.0.0.1.nip.io`, `app-169-254-169-254.sslip.io`,
 * `7f000001.nip.io`): wildcard DNS services answer such names with that address.
 */
function spelledIpv4(host: string): V4 | null {
  const quad = /(?:^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})(?=$|[.-])/.exec(host);
  if (quad) {
    const v4 = quad.slice(1).map(Number) as V4;
    if (v4.every((n) => n <= 255)) return v4;
  }
  const hex = /(?:^|[.-])([0-9a-f]{8})(?=\.)/.exec(host);
  if (!hex) return null;
  const n = parseInt(hex[1]!, 16);
  return [n >>> 24, (n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function nonPublicV4([a, b, c]: V4): string | null {
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 169 && b === 254) return "link-local";
  if (a === 0 || (a === 100 && b >= 64 && b <= 127) || a >= 224) return "reserved";
  // IETF protocol assignments, benchmarking and documentation ranges.
  if ((a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 198 && (b === 18 || b === 19))) return "reserved";
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return "reserved";
  return null;
}

/** What kind of non-public host this is, as the refusal names it ("private addresses"), or null. */
function nonPublicHost(host: string): string | null {
  if (host.endsWith(".local") || host.endsWith(".internal") || (!host.includes(".") && !host.startsWith("[")))
    return "local network names";
  const v4 = ipv4(host) ?? embeddedIpv4(host);
  if (v4) return addresses(nonPublicV4(v4));
  if (!host.startsWith("[")) {
    const spelled = spelledIpv4(host);
    const why = spelled && nonPublicV4(spelled);
    return why ? `names that spell a ${why} address` : null;
  }
  const v6 = host.slice(1, -1);
  if (v6 === "::" || /^::[0-9a-f]{1,4}$/.test(v6)) return "reserved addresses";
  if (/^f[cd][0-9a-f]{0,2}:/.test(v6)) return "private addresses";
  if (/^fe[89ab][0-9a-f]?:/.test(v6)) return "link-local addresses";
  if (/^ff/.test(v6) || /^2001:db8:/.test(v6)) return "reserved addresses";
  return null;
}

const addresses = (kind: string | null) => (kind ? `${kind} addresses` : null);
