/**
 * What an edge tool answered for one call, kept so a repeated call id is answered without running again:
 * the tool's name, the arguments it ran with (JSON text: the same id with other arguments is a client's
 * bug, refused rather than answered with a result for other input) and its answer as JSON text
 * (`{ result, events? }`, the route's own; stored as given).
 */
export interface RecordedTool {
  name: string;
  args: string;
  body: string;
}

/** The tools route may run the call (it holds the claim until it records or releases it), or has its answer. */
export type ToolClaim = { run: true } | { run: false; recorded: RecordedTool };

/**
 * How long a second caller of the same id waits for the first to finish before taking the claim over: a bit
 * more than the route's tool timeout, so only a run whose isolate died is ever run again.
 */
const CLAIM_WAIT_MS = 20_000;

/**
 * Edge tool results by tool call id, in the session's object (resumable turns: a tool call id runs once). A page
 * that went away while a tool ran comes back and asks for the same id: the answer is the first run's. The
 * claim of a run in flight lives in memory (a second tab asking meanwhile waits for it); results in SQLite.
 */
export class ToolResults {
  private readonly running = new Map<string, { done: Promise<void>; settle: () => void }>();

  constructor(private readonly sql: SqlStorage) {}

  /** With the object's other tables (again after an erase). */
  static createTable(sql: SqlStorage): void {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS tool_results " +
        "(call_id TEXT PRIMARY KEY, name TEXT NOT NULL, args TEXT NOT NULL, body TEXT NOT NULL)",
    );
  }

  private read(callId: string): RecordedTool | null {
    const row = this.sql
      .exec<{ name: string; args: string; body: string }>(
        "SELECT name, args, body FROM tool_results WHERE call_id = ?",
        callId,
      )
      .toArray()[0];
    return row ? { name: row.name, args: row.args, body: row.body } : null;
  }

  async claim(callId: string): Promise<ToolClaim> {
    const deadline = Date.now() + CLAIM_WAIT_MS;
    for (;;) {
      const recorded = this.read(callId);
      if (recorded) return { run: false, recorded };
      const busy = this.running.get(callId);
      if (!busy || Date.now() >= deadline) break;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((r) => (timer = setTimeout(r, deadline - Date.now())));
      await Promise.race([busy.done, timeout]).finally(() => clearTimeout(timer));
    }
    let settle!: () => void;
    const done = new Promise<void>((r) => (settle = r));
    this.running.get(callId)?.settle();
    this.running.set(callId, { done, settle });
    return { run: true };
  }

  record(callId: string, { name, args, body }: RecordedTool): void {
    const insert = "INSERT OR IGNORE INTO tool_results (call_id, name, args, body) VALUES (?, ?, ?, ?)";
    this.sql.exec(insert, callId, name, args, body);
    this.release(callId);
  }

  /** The run failed: nothing is kept, and the next call with this id runs the tool (a failure has no answer). */
  release(callId: string): void {
    this.running.get(callId)?.settle();
    this.running.delete(callId);
  }
}
