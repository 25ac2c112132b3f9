import type { AuditEntry, AuditVerdict } from "../../shared/admin/audit.ts";
import { sha256Hex } from "./secrets.ts";

/** An entry before the chain gives it its place: everything but seq, prev and hash. */
export type AuditDraft = Omit<AuditEntry, "seq" | "prev" | "hash">;

export interface AuditFilter {
  who?: string;
  action?: string;
  object?: string;
  from?: number;
  to?: number;
  /** Entries with a seq below this one (paging, newest first). */
  before?: number;
}

/** The fields an entry's hash covers, in the order hashed (the CSV export lists them, then the hash). */
export const HASHED_FIELDS = [
  "seq",
  "at",
  "actorKind",
  "actorId",
  "actorName",
  "action",
  "object",
  "outcome",
  "code",
  "ip",
  "userAgent",
  "prev",
] as const;

/** The hash of an entry: SHA-256 over its fields in a fixed order, the previous entry's hash among them. */
export const entryHash = (e: Omit<AuditEntry, "hash">) => sha256Hex(JSON.stringify(HASHED_FIELDS.map((f) => e[f])));

/**
 * The site's audit trail, append-only and tamper-evident: each entry carries the hash of the one
 * before, so changing, removing or inserting an entry breaks the chain from there on (verify()
 * names the first broken link). The retention purge removes the oldest entries and keeps the last
 * removed one's seq and hash as the chain's anchor. Nothing here updates or deletes an entry otherwise.
 */
export class AuditChain {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS audit (
      seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, actor_kind TEXT NOT NULL, actor_id TEXT NOT NULL,
      actor_name TEXT NOT NULL, action TEXT NOT NULL, object TEXT NOT NULL, outcome TEXT NOT NULL,
      code TEXT NOT NULL, ip TEXT NOT NULL, user_agent TEXT NOT NULL, prev TEXT NOT NULL, hash TEXT NOT NULL)`);
    sql.exec("CREATE INDEX IF NOT EXISTS audit_at ON audit (at)");
    sql.exec("CREATE TABLE IF NOT EXISTS audit_anchor (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER, hash TEXT)");
  }

  private anchor(): { seq: number; hash: string } {
    const [r] = this.sql.exec("SELECT seq, hash FROM audit_anchor WHERE id = 1").toArray();
    return r ? { seq: Number(r.seq), hash: String(r.hash) } : { seq: 0, hash: "" };
  }

  private last(): { seq: number; hash: string } {
    const [r] = this.sql.exec("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1").toArray();
    return r ? { seq: Number(r.seq), hash: String(r.hash) } : this.anchor();
  }

  /** Appends one entry after the last. The caller runs appends one at a time (the hash is computed between). */
  async append(draft: AuditDraft): Promise<AuditEntry> {
    const last = this.last();
    const body = { ...draft, seq: last.seq + 1, prev: last.hash };
    const entry: AuditEntry = { ...body, hash: await entryHash(body) };
    this.sql.exec(
      `INSERT INTO audit (seq, at, actor_kind, actor_id, actor_name, action, object, outcome, code, ip, user_agent,
       prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ...HASHED_FIELDS.map((f) => entry[f]),
      entry.hash,
    );
    return entry;
  }

  list(f: AuditFilter, limit: number): AuditEntry[] {
    const where: string[] = [];
    const args: SqlStorageValue[] = [];
    if (f.who) (where.push("(actor_id = ? OR actor_name = ?)"), args.push(f.who, f.who));
    if (f.action) (where.push("action = ?"), args.push(f.action));
    if (f.object) (where.push("object = ?"), args.push(f.object));
    if (f.from !== undefined) (where.push("at >= ?"), args.push(f.from));
    if (f.to !== undefined) (where.push("at < ?"), args.push(f.to));
    if (f.before !== undefined) (where.push("seq < ?"), args.push(f.before));
    const sql = `SELECT * FROM audit ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY seq DESC LIMIT ?`;
    return this.sql
      .exec(sql, ...args, limit)
      .toArray()
      .map(rowEntry);
  }

  /** Walks the chain from its anchor: each entry's link to the one before, its own hash, no seq missing. */
  async verify(): Promise<AuditVerdict> {
    let expected = this.anchor();
    let checked = 0;
    for (;;) {
      const page = this.sql
        .exec("SELECT * FROM audit WHERE seq > ? ORDER BY seq LIMIT 500", expected.seq)
        .toArray()
        .map(rowEntry);
      if (page.length === 0) return { ok: true, checked };
      for (const e of page) {
        const broken = (reason: "hash" | "link" | "gap"): AuditVerdict => ({
          ok: false,
          checked,
          firstBroken: { seq: e.seq, at: e.at, reason },
        });
        if (e.seq !== expected.seq + 1) return broken("gap");
        if (e.prev !== expected.hash) return broken("link");
        const { hash: _stored, ...body } = e;
        if ((await entryHash(body)) !== e.hash) return broken("hash");
        checked++;
        expected = { seq: e.seq, hash: e.hash };
      }
    }
  }

  /** Removes entries older than `before` (retention), keeping the last removed one as the anchor. */
  purge(before: number): number {
    const [r] = this.sql.exec("SELECT seq, hash FROM audit WHERE at < ? ORDER BY seq DESC LIMIT 1", before).toArray();
    if (!r) return 0;
    const removed = this.sql.exec("DELETE FROM audit WHERE seq <= ?", Number(r.seq)).rowsWritten;
    this.sql.exec(
      "INSERT OR REPLACE INTO audit_anchor (id, seq, hash) VALUES (1, ?, ?)",
      Number(r.seq),
      String(r.hash),
    );
    return removed;
  }
}

function rowEntry(r: Record<string, SqlStorageValue>): AuditEntry {
  return {
    seq: Number(r.seq),
    at: Number(r.at),
    actorKind: r.actor_kind as AuditEntry["actorKind"],
    actorId: String(r.actor_id),
    actorName: String(r.actor_name),
    action: r.action as AuditEntry["action"],
    object: String(r.object),
    outcome: r.outcome as AuditEntry["outcome"],
    code: String(r.code),
    ip: String(r.ip),
    userAgent: String(r.user_agent),
    prev: String(r.prev),
    hash: String(r.hash),
  };
}
