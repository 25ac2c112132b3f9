import { DurableObject } from "cloudflare:workers";
import { EVENT_TYPES } from "../../shared/protocol.ts";
import { foldSession, reduceSession, type SessionEvent, type SessionState } from "../../shared/session.ts";
import type { Env } from "../env.ts";

/**
 * One session: its append-only event log in SQLite and the state folded from it by the shared
 * reducer. The object serializes appends; an event id already stored is ignored, so a retried
 * append stores nothing twice.
 */
export class SessionRoom extends DurableObject<Env> {
  private state: SessionState;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)",
    );
    const rows = ctx.storage.sql.exec<{ body: string }>("SELECT body FROM events ORDER BY seq").toArray();
    this.state = foldSession(rows.map((r) => JSON.parse(r.body) as SessionEvent));
  }

  /** Creates the session once; calling it again returns the existing state. */
  async open(data: { sessionId: string; siteKey: string; agentId: string; locale?: string }): Promise<SessionState> {
    if (this.state.sessionId) return this.state;
    return this.append([{ id: "opened", at: Date.now(), type: EVENT_TYPES.sessionOpened, data }]);
  }

  async append(events: SessionEvent[]): Promise<SessionState> {
    for (const event of events) {
      const cursor = this.ctx.storage.sql.exec("INSERT OR IGNORE INTO events (id, body) VALUES (?, ?)", event.id, JSON.stringify(event));
      if (cursor.rowsWritten > 0) this.state = reduceSession(this.state, event);
    }
    return this.state;
  }

  async getState(): Promise<SessionState> {
    return this.state;
  }

  async getEvents(afterSeq = 0): Promise<Array<{ seq: number; event: SessionEvent }>> {
    return this.ctx.storage.sql
      .exec<{ seq: number; body: string }>("SELECT seq, body FROM events WHERE seq > ? ORDER BY seq", afterSeq)
      .toArray()
      .map((r) => ({ seq: r.seq, event: JSON.parse(r.body) as SessionEvent }));
  }
}
