import type { SessionSummary } from "../../shared/session/session-summary.ts";
import type { LiveConversation, QueuedConversation } from "../../shared/takeover/takeover-api.ts";

type Row = Record<string, SqlStorageValue>;
/** The agent's conversations active this recently are listed on the Live page too (to watch, or join). */
const RECENT_MS = 15 * 60_000;
const LIST_LIMIT = 100;

/**
 * The Live page's lists (takeover), beside the conversation index: a row for each
 * conversation waiting for a person or handled by one, kept from the summaries sessions push (at
 * once for takeover steps), so listing opens no session.
 */
export class LiveList {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS live_sessions (sid TEXT PRIMARY KEY, agent TEXT NOT NULL, status TEXT NOT NULL, " +
        "by_whom TEXT, reason TEXT, requested INTEGER, staff_id TEXT, staff_name TEXT, since INTEGER, " +
        "last INTEGER NOT NULL, first_text TEXT NOT NULL)",
    );
  }

  upsert(s: SessionSummary): void {
    const h = s.handler;
    const r = s.personRequest;
    const status = h?.kind === "person" ? "person" : r?.status === "queued" ? "queued" : null;
    if (!status) {
      this.sql.exec("DELETE FROM live_sessions WHERE sid = ?", s.sessionId);
      return;
    }
    const person = h?.kind === "person" ? h : null;
    this.sql.exec(
      "INSERT OR REPLACE INTO live_sessions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      s.sessionId,
      s.agentId,
      status,
      r?.by ?? null,
      r?.reason ?? null,
      r?.at ?? null,
      person?.staffId ?? null,
      person?.name ?? null,
      person?.since ?? null,
      s.lastActivityAt,
      s.firstText,
    );
  }

  forget(sessionId: string): void {
    this.sql.exec("DELETE FROM live_sessions WHERE sid = ?", sessionId);
  }

  /** Waiting for a person, longest waiting first. */
  queue(now: number): QueuedConversation[] {
    return this.sql
      .exec<Row>("SELECT * FROM live_sessions WHERE status = 'queued' ORDER BY requested LIMIT ?", LIST_LIMIT)
      .toArray()
      .map((r) => ({
        sessionId: String(r.sid),
        agentId: String(r.agent),
        by: r.by_whom === "agent" ? "agent" : "visitor",
        ...(r.reason ? { reason: String(r.reason) } : {}),
        requestedAt: Number(r.requested),
        waitingMs: Math.max(0, now - Number(r.requested)),
        firstText: String(r.first_text),
      }));
  }

  /** Handled by a person, then the agent's conversations active in the last RECENT_MS, newest first. */
  live(now: number): LiveConversation[] {
    const people: LiveConversation[] = this.sql
      .exec<Row>("SELECT * FROM live_sessions WHERE status = 'person' ORDER BY since DESC LIMIT ?", LIST_LIMIT)
      .toArray()
      .map((r) => ({
        sessionId: String(r.sid),
        agentId: String(r.agent),
        handler: { kind: "person", staffId: String(r.staff_id), name: String(r.staff_name), since: Number(r.since) },
        lastActivityAt: Number(r.last),
        firstText: String(r.first_text),
      }));
    const agent: LiveConversation[] = this.sql
      .exec<Row>(
        "SELECT sid, agent, last, first_text FROM sessions WHERE last > ? AND sid NOT IN " +
          "(SELECT sid FROM live_sessions) ORDER BY last DESC LIMIT ?",
        now - RECENT_MS,
        LIST_LIMIT,
      )
      .toArray()
      .map((r) => ({
        sessionId: String(r.sid),
        agentId: String(r.agent),
        handler: { kind: "agent" },
        lastActivityAt: Number(r.last),
        firstText: String(r.first_text),
      }));
    return [...people, ...agent];
  }
}
