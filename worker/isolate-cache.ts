/**
 * Values read from KV or a Durable Object, kept in the isolate for `ttlMs` so hot paths skip the
 * read. Bounded (cleared when full), because some keys come from requests (any Origin, any site).
 */
export class IsolateCache<T> {
  private readonly entries = new Map<string, { at: number; value: T }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  /** The fresh value for `key`, or `read()`'s, which is kept. */
  async through(key: string, read: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const value = await read();
    this.set(key, value);
    return value;
  }

  set(key: string, value: T): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { at: Date.now(), value });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
