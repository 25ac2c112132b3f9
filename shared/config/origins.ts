/**
 * Allowed-origin patterns are exact origins (`https://clinic.example`) or a loopback origin with a
 * port wildcard (`http://127.0.0.1:*`) for local demos and tests. Both sides match them: the worker
 * (CORS, opening sessions, the embed page's frame-ancestors) and the iframe embed page (which
 * parent may drive it by postMessage).
 */
export function originAllowed(origin: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => {
    if (p === origin) return true;
    if (p.endsWith(":*")) {
      const prefix = p.slice(0, -1);
      return origin.startsWith(prefix) && /^\d{1,5}$/.test(origin.slice(prefix.length));
    }
    return false;
  });
}
