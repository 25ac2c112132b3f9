import type {
  DeliveryAttempt,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from "../../shared/admin/webhook-api.ts";
import type { DeliveryStatus, WebhookEventType } from "../../shared/admin/webhook-events.ts";
import { ensureColumn } from "../accounts/sql-columns.ts";

type Row = Record<string, SqlStorageValue>;

/** A delivery waiting for its attempt: the head of its endpoint's lane for its conversation. */
export interface DueDelivery {
  rowid: number;
  endpoint: string;
  msgId: string;
  payload: string;
  attempts: number;
  /** The step of the retry schedule this attempt stands for (a Retry-After may have passed over some). */
  step: number;
  firstAt: number;
}

/**
 * The outbox's tables: endpoints (with their secrets) and deliveries, one row per endpoint and
 * event (`UNIQUE (endpoint, msg_id)`: an event queued twice is delivered once), with each attempt.
 * A lane is an endpoint's deliveries of one conversation: only its oldest pending row is sent, so a
 * receiver gets a conversation's events in order even across retries.
 */
export class OutboxStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS endpoints (id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, " +
        "description TEXT NOT NULL, secret TEXT NOT NULL, prev_secret TEXT, prev_until INTEGER, " +
        "created INTEGER NOT NULL)",
    );
    sql.exec(
      "CREATE TABLE IF NOT EXISTS deliveries (rowid INTEGER PRIMARY KEY AUTOINCREMENT, endpoint TEXT NOT NULL, " +
        "msg_id TEXT NOT NULL, type TEXT NOT NULL, lane TEXT NOT NULL, conversation TEXT, payload TEXT NOT NULL, " +
        "status TEXT NOT NULL, attempts INTEGER NOT NULL, first_at INTEGER NOT NULL, next_at INTEGER, " +
        "created INTEGER NOT NULL, last_status INTEGER, last_error TEXT, last_body TEXT, UNIQUE (endpoint, msg_id))",
    );
    // Outboxes made before Retry-After was read: each row's step was its attempts count.
    if (ensureColumn(sql, "deliveries", "step", "INTEGER NOT NULL DEFAULT 0"))
      sql.exec("UPDATE deliveries SET step = attempts");
    sql.exec("CREATE INDEX IF NOT EXISTS deliveries_lane ON deliveries (endpoint, lane, status, rowid)");
    sql.exec(
      "CREATE TABLE IF NOT EXISTS attempts (delivery INTEGER NOT NULL, at INTEGER NOT NULL, ms INTEGER NOT NULL, " +
        "status INTEGER, error TEXT)",
    );
  }

  endpoints(): WebhookEndpointWithSecret[] {
    return this.sql.exec<Row>("SELECT * FROM endpoints ORDER BY created").toArray().map(endpointView);
  }

  endpoint(id: string): WebhookEndpointWithSecret | null {
    const row = this.sql.exec<Row>("SELECT * FROM endpoints WHERE id = ?", id).toArray()[0];
    return row ? endpointView(row) : null;
  }

  putEndpoint(e: WebhookEndpointWithSecret, prevSecret: string | null): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO endpoints (id, url, events, description, secret, prev_secret, prev_until, created) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      e.id,
      e.url,
      JSON.stringify(e.events),
      e.description,
      e.secret,
      prevSecret,
      e.previousSecretUntil,
      e.createdAt,
    );
  }

  /** The secrets to sign with now: the current one, and the previous one while its overlap lasts. */
  secrets(id: string, now: number): string[] {
    const row = this.sql.exec<Row>("SELECT secret, prev_secret, prev_until FROM endpoints WHERE id = ?", id).one();
    const prev = row.prev_secret && Number(row.prev_until) > now ? [String(row.prev_secret)] : [];
    return [String(row.secret), ...prev];
  }

  deleteEndpoint(id: string): boolean {
    const gone = this.sql.exec("DELETE FROM endpoints WHERE id = ?", id).rowsWritten > 0;
    this.sql.exec("DELETE FROM attempts WHERE delivery IN (SELECT rowid FROM deliveries WHERE endpoint = ?)", id);
    this.sql.exec("DELETE FROM deliveries WHERE endpoint = ?", id);
    return gone;
  }

  /** Queues one event for one endpoint; false when that endpoint already has it. */
  enqueue(d: {
    endpoint: string;
    msgId: string;
    type: WebhookEventType;
    conversation: string | null;
    payload: string;
    now: number;
  }): boolean {
    const lane = d.conversation ?? `message:${d.msgId}`;
    return (
      this.sql.exec(
        "INSERT OR IGNORE INTO deliveries (endpoint, msg_id, type, lane, conversation, payload, status, attempts, " +
          "first_at, next_at, created) VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)",
        d.endpoint,
        d.msgId,
        d.type,
        lane,
        d.conversation,
        d.payload,
        d.now,
        d.now,
        d.now,
      ).rowsWritten > 0
    );
  }

  /** Each lane's oldest pending delivery, soonest first. */
  heads(limit: number): Array<DueDelivery & { nextAt: number }> {
    return this.sql
      .exec<Row>(
        "SELECT d.rowid, d.endpoint, d.msg_id, d.payload, d.attempts, d.step, d.first_at, d.next_at " +
          "FROM deliveries d " +
          "WHERE d.status = 'pending' AND d.rowid = (SELECT MIN(e.rowid) FROM deliveries e " +
          "WHERE e.endpoint = d.endpoint AND e.lane = d.lane AND e.status = 'pending') ORDER BY d.next_at LIMIT ?",
        limit,
      )
      .toArray()
      .map((r) => ({
        rowid: Number(r.rowid),
        endpoint: String(r.endpoint),
        msgId: String(r.msg_id),
        payload: String(r.payload),
        attempts: Number(r.attempts),
        step: Number(r.step),
        firstAt: Number(r.first_at),
        nextAt: Number(r.next_at),
      }));
  }

  /** Records an attempt: the row's new status and, while pending, when the next one is due and its step. */
  recordAttempt(
    rowid: number,
    a: DeliveryAttempt & { body: string | null },
    status: DeliveryStatus,
    next: { at: number; step: number } | null,
  ): void {
    this.sql.exec(
      "UPDATE deliveries SET attempts = attempts + 1, status = ?, next_at = ?, step = COALESCE(?, step), " +
        "last_status = ?, last_error = ?, last_body = ? WHERE rowid = ?",
      status,
      next?.at ?? null,
      next?.step ?? null,
      a.status,
      a.error,
      a.body,
      rowid,
    );
    this.sql.exec(
      "INSERT INTO attempts (delivery, at, ms, status, error) VALUES (?, ?, ?, ?, ?)",
      rowid,
      a.at,
      a.ms,
      a.status,
      a.error,
    );
  }

  /** Sends a delivery again from the start of the schedule; false when there is no such delivery. */
  resend(rowid: number, now: number): boolean {
    return (
      this.sql.exec(
        "UPDATE deliveries SET status = 'pending', first_at = ?, next_at = ?, step = 0 WHERE rowid = ?",
        now,
        now,
        rowid,
      ).rowsWritten > 0
    );
  }

  /** A conversation erased: what was queued about it goes too (its payloads quote the visitor). */
  forgetConversation(conversation: string): void {
    this.sql.exec(
      "DELETE FROM attempts WHERE delivery IN (SELECT rowid FROM deliveries WHERE conversation = ?)",
      conversation,
    );
    this.sql.exec("DELETE FROM deliveries WHERE conversation = ?", conversation);
  }

  deliveries(opts: { endpoint?: string; status?: DeliveryStatus; limit: number }): WebhookDeliveryView[] {
    const where: string[] = [];
    const args: SqlStorageValue[] = [];
    if (opts.endpoint) (where.push("endpoint = ?"), args.push(opts.endpoint));
    if (opts.status) (where.push("status = ?"), args.push(opts.status));
    const rows = this.sql
      .exec<Row>(
        `SELECT * FROM deliveries ${where.length ? "WHERE " + where.join(" AND ") : ""} ORDER BY rowid DESC LIMIT ?`,
        ...args,
        opts.limit,
      )
      .toArray();
    return rows.map((r) => this.deliveryView(r));
  }

  delivery(rowid: number): WebhookDeliveryView | null {
    const row = this.sql.exec<Row>("SELECT * FROM deliveries WHERE rowid = ?", rowid).toArray()[0];
    return row ? this.deliveryView(row) : null;
  }

  private deliveryView(r: Row): WebhookDeliveryView {
    const history = this.sql
      .exec<Row>("SELECT at, ms, status, error FROM attempts WHERE delivery = ? ORDER BY at", r.rowid)
      .toArray()
      .map((a) => ({
        at: Number(a.at),
        ms: Number(a.ms),
        status: a.status === null ? null : Number(a.status),
        error: a.error === null ? null : String(a.error),
      }));
    return {
      id: Number(r.rowid),
      endpointId: String(r.endpoint),
      messageId: String(r.msg_id),
      type: String(r.type) as WebhookEventType,
      conversation: r.conversation === null ? null : String(r.conversation),
      status: String(r.status) as DeliveryStatus,
      attempts: Number(r.attempts),
      nextAttemptAt: r.status === "pending" && r.next_at !== null ? Number(r.next_at) : null,
      createdAt: Number(r.created),
      lastStatus: r.last_status === null ? null : Number(r.last_status),
      lastError: r.last_error === null ? null : String(r.last_error),
      lastResponse: r.last_body === null ? null : String(r.last_body),
      payload: JSON.parse(String(r.payload)),
      history,
    };
  }
}

function endpointView(r: Row): WebhookEndpointWithSecret {
  return {
    id: String(r.id),
    url: String(r.url),
    events: JSON.parse(String(r.events)),
    description: String(r.description),
    secret: String(r.secret),
    secretHint: secretHint(String(r.secret)),
    previousSecretUntil: r.prev_secret && r.prev_until !== null ? Number(r.prev_until) : null,
    createdAt: Number(r.created),
  };
}

/** `whsec_…x7Qz`: enough to tell secrets apart, nothing to sign with (24 random bytes, 4 characters shown). */
export function secretHint(secret: string): string {
  const prefix = secret.startsWith("whsec_") ? "whsec_" : "";
  return `${prefix}…${secret.slice(-4)}`;
}

/** An endpoint as any later answer shows it: its secret as a hint only. */
export function maskedEndpoint(e: WebhookEndpointWithSecret): WebhookEndpointView {
  const { secret: _whole, ...view } = e;
  return view;
}
