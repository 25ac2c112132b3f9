import type { ConversationQuery, InsightRow } from "../../shared/admin/conversation-query.ts";
import type { SessionStep, SessionSummary } from "../../shared/session/session-summary.ts";
import { insightRows } from "./insight-rows.ts";

type Row = Record<string, SqlStorageValue>;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The site's conversations, one summary row each, and their completions and tool calls (what the
 * insights count), in the site's SQLite. Sessions push their rows here (SessionRoom's alarm).
 */
export class SessionIndex {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS sessions (sid TEXT PRIMARY KEY, agent TEXT NOT NULL, locale TEXT NOT NULL, " +
        "opened INTEGER NOT NULL, day TEXT NOT NULL, last INTEGER NOT NULL, messages INTEGER NOT NULL, " +
        "tokens INTEGER NOT NULL, fb_up INTEGER NOT NULL, fb_down INTEGER NOT NULL, advice INTEGER NOT NULL, " +
        "escalated INTEGER NOT NULL, interrupted INTEGER NOT NULL, quick INTEGER NOT NULL, react INTEGER NOT NULL, " +
        "handled_by TEXT NOT NULL, first_text TEXT NOT NULL)",
    );
    sql.exec("CREATE INDEX IF NOT EXISTS sessions_opened ON sessions (opened)");
    sql.exec("CREATE INDEX IF NOT EXISTS sessions_last ON sessions (last)");
    sql.exec(
      "CREATE TABLE IF NOT EXISTS steps (id TEXT PRIMARY KEY, sid TEXT NOT NULL, day TEXT NOT NULL, " +
        "agent TEXT NOT NULL, kind TEXT NOT NULL, purpose TEXT NOT NULL, first_ms INTEGER, tokens INTEGER NOT NULL, " +
        "ok INTEGER NOT NULL, answer INTEGER NOT NULL)",
    );
    sql.exec("CREATE INDEX IF NOT EXISTS steps_day ON steps (day)");
    sql.exec("CREATE INDEX IF NOT EXISTS steps_sid ON steps (sid)");
  }

  upsert(s: SessionSummary, steps: SessionStep[]): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      s.sessionId,
      s.agentId,
      s.locale,
      s.openedAt,
      day(s.openedAt),
      s.lastActivityAt,
      s.messages,
      s.tokens,
      s.feedbackUp,
      s.feedbackDown,
      s.advice,
      Number(s.escalated),
      Number(s.interrupted),
      s.quickAnswers,
      s.reactAnswers,
      s.handledBy,
      s.firstText,
    );
    for (const t of steps) {
      // A step's `answer` can change (its reply arrives after the step), so steps are replaced too.
      this.sql.exec(
        "INSERT OR REPLACE INTO steps VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        `${s.sessionId}:${t.id}`,
        s.sessionId,
        day(t.at),
        s.agentId,
        t.kind,
        t.purpose,
        t.firstByteMs,
        t.tokens,
        Number(t.ok),
        Number(t.answer),
      );
    }
  }

  forget(sessionId: string): boolean {
    this.sql.exec("DELETE FROM steps WHERE sid = ?", sessionId);
    return this.sql.exec("DELETE FROM sessions WHERE sid = ?", sessionId).rowsWritten > 0;
  }

  has(sessionId: string): boolean {
    return this.sql.exec("SELECT 1 FROM sessions WHERE sid = ?", sessionId).toArray().length > 0;
  }

  lastActivity(sessionId: string): number {
    return Number(this.sql.exec("SELECT last FROM sessions WHERE sid = ?", sessionId).toArray()[0]?.last ?? 0);
  }

  /** Sessions whose last activity is before `cutoff`, oldest first (the retention purge). */
  idleSince(cutoff: number, limit: number): string[] {
    return this.sql
      .exec<{ sid: string }>("SELECT sid FROM sessions WHERE last < ? ORDER BY last LIMIT ?", cutoff, limit)
      .toArray()
      .map((r) => r.sid);
  }

  list(q: ConversationQuery, limit: number): SessionSummary[] {
    const where: string[] = [];
    const args: SqlStorageValue[] = [];
    const add = (clause: string, ...values: SqlStorageValue[]) => {
      where.push(clause);
      args.push(...values);
    };
    if (q.agent) add("agent = ?", q.agent);
    if (q.from) add("opened >= ?", Number(q.from));
    if (q.to) add("opened < ?", Number(q.to));
    if (q.before) add("opened < ?", Number(q.before));
    if (q.route === "quick") add("quick > 0");
    if (q.route === "react") add("react > 0");
    if (q.feedback === "up") add("fb_up > 0");
    if (q.feedback === "down") add("fb_down > 0");
    if (q.feedback === "any") add("fb_up + fb_down > 0");
    if (q.feedback === "none") add("fb_up + fb_down = 0");
    if (q.advice) add("advice > 0");
    if (q.escalated) add("escalated = 1");
    if (q.interrupted) add("interrupted = 1");
    if (q.handledBy) add("handled_by = ?", q.handledBy);
    if (q.q) {
      const like = `%${q.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      add("(first_text LIKE ? ESCAPE '\\' OR sid LIKE ? ESCAPE '\\')", like, like);
    }
    const sql =
      "SELECT * FROM sessions" +
      (where.length ? ` WHERE ${where.join(" AND ")}` : "") +
      " ORDER BY opened DESC, sid DESC LIMIT ?";
    return this.sql
      .exec<Row>(sql, ...args, limit)
      .toArray()
      .map(toSummary);
  }

  /** Per day and agent, or per day across agents (`byAgent` false: agent `*`, percentiles over all). */
  insights(from: number, to: number, agent: string | undefined, byAgent: boolean): InsightRow[] {
    return insightRows(this.sql, from, to, agent, byAgent);
  }
}

function toSummary(r: Row): SessionSummary {
  return {
    sessionId: String(r.sid),
    agentId: String(r.agent),
    locale: String(r.locale),
    openedAt: Number(r.opened),
    lastActivityAt: Number(r.last),
    messages: Number(r.messages),
    tokens: Number(r.tokens),
    feedbackUp: Number(r.fb_up),
    feedbackDown: Number(r.fb_down),
    advice: Number(r.advice),
    escalated: r.escalated === 1,
    interrupted: r.interrupted === 1,
    quickAnswers: Number(r.quick),
    reactAnswers: Number(r.react),
    handledBy: r.handled_by === "human" ? "human" : "agent",
    firstText: String(r.first_text),
  };
}
