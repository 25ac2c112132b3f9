import type { StoredSession } from "../agent/session-api.ts";

export type KeyValueStore = {
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
  removeItem(k: string): void;
};

/** localStorage can be missing or throw (sandboxed frames, private modes); the widget then forgets on reload. */
export function defaultStorage(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** sessionStorage, for what should outlive a reload but not the tab: the composer's draft, an unsent message. */
export function defaultSessionStorage(): KeyValueStore | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** Reads a stored string; a store that throws counts as empty. */
export function loadText(store: KeyValueStore | null, key: string): string {
  try {
    return store?.getItem(key) ?? "";
  } catch {
    return "";
  }
}

/** Stores a string, or removes it when empty; a full or denied store is ignored (kept in memory only). */
export function saveText(store: KeyValueStore | null, key: string, text: string): void {
  try {
    if (text) store?.setItem(key, text);
    else store?.removeItem(key);
  } catch {
    /* quota or denied */
  }
}

/**
 * One stored session per site, agent and visitor identity, so a visitor switched in a single-page
 * app never sees the previous one's conversation. The identity is hashed (FNV-1a): an email
 * address used as identity does not sit in localStorage as given.
 */
export function sessionKey(siteKey: string, agentId: string, identity?: string): string {
  let h = 0x811c9dc5;
  for (const ch of identity ?? "") h = Math.imul(h ^ ch.codePointAt(0)!, 16777619);
  return `parley:session:${siteKey}:${agentId}${identity ? `:${(h >>> 0).toString(36)}` : ""}`;
}

export function loadSession(store: KeyValueStore | null, key: string): StoredSession | null {
  try {
    const raw = store?.getItem(key);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<StoredSession>;
    if (typeof v.sessionId === "string" && typeof v.token === "string" && typeof v.expiresAt === "number") {
      return { sessionId: v.sessionId, token: v.token, expiresAt: v.expiresAt };
    }
  } catch {
    /* unreadable: treated as absent */
  }
  return null;
}

export function saveSession(store: KeyValueStore | null, key: string, s: StoredSession | null): void {
  try {
    if (s) store?.setItem(key, JSON.stringify(s));
    else store?.removeItem(key);
  } catch {
    /* quota or denied: the session still works until reload */
  }
}
