/**
 * Stale-while-revalidate for values on the chat path, with a hard bound (langfuse#7736 and
 * langfuse#10138: a client cache that serves an old prompt for ever). A value younger than `freshMs` is
 * served as is; until `maxStaleMs` it is served while one refresh runs in the background; older,
 * the caller waits for the store. When the store cannot be read, the last good value is served
 * (whatever its age, marked stale) rather than nothing. No Workers types: measured in Node too.
 */
export interface SwrOptions {
  freshMs: number;
  maxStaleMs: number;
  maxEntries?: number;
  now?: () => number;
}

export interface SwrResult<T> {
  value: T;
  /** ms since the value was read from the store. */
  ageMs: number;
  /** The store could not be read and an older value was served. */
  stale: boolean;
}

interface Entry<T> {
  value: T;
  at: number;
  refreshing?: Promise<unknown>;
}

export class SwrCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly now: () => number;

  constructor(private readonly opts: SwrOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** `background` receives a refresh that outlives the request (the route's waitUntil). */
  async get(
    key: string,
    read: () => Promise<T>,
    background: (p: Promise<unknown>) => void = () => {},
  ): Promise<SwrResult<T>> {
    const hit = this.entries.get(key);
    const now = this.now();
    if (hit) {
      const ageMs = now - hit.at;
      if (ageMs < this.opts.freshMs) return { value: hit.value, ageMs, stale: false };
      if (ageMs < this.opts.maxStaleMs) {
        if (!hit.refreshing) {
          hit.refreshing = read().then(
            (value) => this.set(key, value),
            () => {
              hit.refreshing = undefined;
            },
          );
          background(hit.refreshing);
        }
        return { value: hit.value, ageMs, stale: false };
      }
    }
    try {
      const value = await read();
      this.set(key, value);
      return { value, ageMs: 0, stale: false };
    } catch (err) {
      if (!hit) throw err;
      return { value: hit.value, ageMs: now - hit.at, stale: true };
    }
  }

  set(key: string, value: T): void {
    if (this.entries.size >= (this.opts.maxEntries ?? 1000) && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, { value, at: this.now() });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
