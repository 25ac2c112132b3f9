import type { QueuedRequest, RunRecord } from "../../shared/admin/desk-records.ts";

/** Thumbs-up questions kept for the regression set. */
const GOOD_KEPT = 20;

type RequestRow = { id: string; source: string; text: string; context: string; at: number; run_id: string | null };
export type RunRow = { id: string; body: string; heartbeat: number };

const toRequest = (r: RequestRow): QueuedRequest => ({
  id: r.id,
  source: r.source as QueuedRequest["source"],
  text: r.text,
  context: JSON.parse(r.context) as Record<string, string>,
  at: r.at,
  runId: r.run_id,
});

/**
 * A strategy desk's SQLite: its queued requests (each held by at most one run), its runs (the
 * record as JSON, with a heartbeat), the thumbs-up questions of the regression set, its token use
 * per day, and which site and agent it serves.
 */
export class DeskStore {
  private readonly sql: SqlStorage;

  constructor(private readonly storage: DurableObjectStorage) {
    const sql = (this.sql = storage.sql);
    sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    sql.exec(`CREATE TABLE IF NOT EXISTS requests (id TEXT PRIMARY KEY, source TEXT NOT NULL, text TEXT NOT NULL,
      context TEXT NOT NULL,
      at INTEGER NOT NULL, run_id TEXT, done INTEGER NOT NULL DEFAULT 0)`);
    sql.exec(
      "CREATE TABLE IF NOT EXISTS runs (id TEXT PRIMARY KEY, started INTEGER NOT NULL, status TEXT NOT " +
        "NULL, heartbeat INTEGER NOT NULL, body TEXT NOT NULL)",
    );
    sql.exec("CREATE TABLE IF NOT EXISTS good (question TEXT PRIMARY KEY, at INTEGER NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS usage (day TEXT PRIMARY KEY, tokens INTEGER NOT NULL)");
  }

  addRequest(request: QueuedRequest): void {
    this.sql.exec(
      "INSERT INTO requests (id, source, text, context, at) VALUES (?, ?, ?, ?, ?)",
      request.id,
      request.source,
      request.text,
      JSON.stringify(request.context),
      request.at,
    );
  }

  /** Requests not yet done: waiting (runId null) or held by the running run. */
  pending(): QueuedRequest[] {
    return this.sql.exec<RequestRow>("SELECT * FROM requests WHERE done = 0 ORDER BY at").toArray().map(toRequest);
  }

  /** Requests no run holds. */
  waiting(): QueuedRequest[] {
    return this.sql
      .exec<RequestRow>("SELECT * FROM requests WHERE done = 0 AND run_id IS NULL ORDER BY at")
      .toArray()
      .map(toRequest);
  }

  anyWaiting(): boolean {
    return this.sql.exec("SELECT 1 FROM requests WHERE done = 0 AND run_id IS NULL LIMIT 1").toArray().length > 0;
  }

  /** A run's requests wait again, unchanged (it failed or died). */
  requeue(runId: string): void {
    this.sql.exec("UPDATE requests SET run_id = NULL WHERE run_id = ?", runId);
  }

  /** A run starts: recorded, and it holds its requests. */
  claim(run: RunRecord, requests: QueuedRequest[]): void {
    this.storage.transactionSync(() => {
      this.store(run);
      for (const r of requests) this.sql.exec("UPDATE requests SET run_id = ? WHERE id = ?", run.id, r.id);
    });
  }

  /** A run ended: recorded, its requests answered (or back in the queue when it failed), its tokens counted. */
  settle(run: RunRecord, day: string): void {
    this.storage.transactionSync(() => {
      this.store(run);
      if (run.status === "failed") this.requeue(run.id);
      else this.sql.exec("UPDATE requests SET done = 1 WHERE run_id = ?", run.id);
      this.sql.exec(
        "INSERT INTO usage (day, tokens) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET tokens = tokens + " +
          "excluded.tokens",
        day,
        run.tokens,
      );
    });
  }

  spentOn(day: string): number {
    return this.sql.exec<{ tokens: number }>("SELECT tokens FROM usage WHERE day = ?", day).toArray()[0]?.tokens ?? 0;
  }

  noteGood(question: string): void {
    this.sql.exec(
      "INSERT INTO good (question, at) VALUES (?, ?) ON CONFLICT(question) DO UPDATE SET at = excluded.at",
      question.slice(0, 2000),
      Date.now(),
    );
    this.sql.exec(
      "DELETE FROM good WHERE question IN (SELECT question FROM good ORDER BY at DESC LIMIT -1 OFFSET ?)",
      GOOD_KEPT,
    );
  }

  goodQuestions(): string[] {
    return this.sql
      .exec<{ question: string }>("SELECT question FROM good ORDER BY at DESC")
      .toArray()
      .map((r) => r.question);
  }

  runs(limit: number): Array<Omit<RunRecord, "trace" | "requests">> {
    return this.sql
      .exec<RunRow>("SELECT body FROM runs ORDER BY started DESC LIMIT ?", limit)
      .toArray()
      .map((r) => {
        const { trace: _t, requests: _r, ...rest } = JSON.parse(r.body) as RunRecord;
        return rest;
      });
  }

  run(id: string): RunRecord | null {
    const row = this.sql.exec<RunRow>("SELECT body FROM runs WHERE id = ?", id).toArray()[0];
    // A run stored without its requests reads as having none.
    if (!row) return null;
    const run = JSON.parse(row.body) as RunRecord;
    return { ...run, requests: run.requests ?? [] };
  }

  running(): RunRow[] {
    return this.sql.exec<RunRow>("SELECT id, body, heartbeat FROM runs WHERE status = 'running'").toArray();
  }

  lastPromoted(): string | undefined {
    return this.sql
      .exec<{ id: string }>("SELECT id FROM runs WHERE status = 'promoted' ORDER BY started DESC LIMIT 1")
      .toArray()[0]?.id;
  }

  heartbeat(runId: string): void {
    this.sql.exec("UPDATE runs SET heartbeat = ? WHERE id = ?", Date.now(), runId);
  }

  store(run: RunRecord): RunRecord {
    this.sql.exec(
      `INSERT INTO runs (id, started, status, heartbeat, body) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT(id) DO UPDATE SET status = excluded.status, body = excluded.body`,
      run.id,
      run.startedAt,
      run.status,
      Date.now(),
      JSON.stringify(run),
    );
    return run;
  }

  remember(siteKey: string, agentId: string): void {
    this.sql.exec(
      "INSERT INTO meta (key, value) VALUES ('site', ?), ('agent', ?) ON CONFLICT(key) DO UPDATE SET value " +
        "= excluded.value",
      siteKey,
      agentId,
    );
  }

  meta(key: "site" | "agent"): string | undefined {
    return this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value;
  }
}
