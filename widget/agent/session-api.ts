/** What the widget keeps in localStorage to find its session again after a reload. */
export interface StoredSession {
  sessionId: string;
  token: string;
  expiresAt: number;
}

/** Expired, or about to be within the next request: `expiresAt` is in milliseconds (SessionResponse). */
export function isExpired(s: StoredSession, now = Date.now()): boolean {
  return s.expiresAt <= now + 5_000;
}
