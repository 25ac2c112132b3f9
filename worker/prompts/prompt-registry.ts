import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";
import { DESK_PROMPT_SEEDS } from "./desk-prompts.ts";
import { AGENT_PARTS, LABELS, allowedVariables, composeAgentPrompt, type AgentParts } from "./prompt-paths.ts";
import { variablesOf } from "./template.ts";
import type { LabelMove, PromptSummary, PromptVersion } from "../../shared/admin/prompt-records.ts";
import { RegistryError, type SaveInput } from "./registry-types.ts";

type VersionRow = {
  path: string;
  version: number;
  text: string;
  variables: string;
  author: string;
  parent: number | null;
  note: string;
  at: number;
};
type MoveRow = {
  seq: number;
  path: string;
  label: string;
  from_version: number | null;
  to_version: number | null;
  by: string;
  why: string;
  at: number;
};

const toVersion = (r: VersionRow): PromptVersion => ({
  path: r.path,
  version: r.version,
  text: r.text,
  variables: JSON.parse(r.variables) as string[],
  author: r.author,
  parent: r.parent,
  note: r.note,
  at: r.at,
});
const toMove = (r: MoveRow): LabelMove => ({
  seq: r.seq,
  path: r.path,
  label: r.label,
  from: r.from_version,
  to: r.to_version,
  by: r.by,
  why: r.why,
  at: r.at,
});

/**
 * One per site: every prompt of its agents and of its strategy desk. Versions are immutable
 * (number, text, declared variables, author, parent, note, time); labels point at versions and
 * every move of one is a row of history (from, to, by, why, when) — langfuse#16007 asks for that.
 * SQLite in a Durable Object: strongly consistent, so a save and a label move are seen at once
 * by the next read; the chat path reads through an isolate cache (agent-prompt-cache.ts).
 */
export class PromptRegistry extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql
      .exec(`CREATE TABLE IF NOT EXISTS versions (path TEXT NOT NULL, version INTEGER NOT NULL, text TEXT NOT NULL,
      variables TEXT NOT NULL, author TEXT NOT NULL, parent INTEGER, note TEXT NOT NULL, at INTEGER NOT NULL,
      PRIMARY KEY (path, version))`);
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS labels (path TEXT NOT NULL, label TEXT NOT NULL, version INTEGER NOT " +
        "NULL, PRIMARY KEY (path, label))",
    );
    this.sql.exec(`CREATE TABLE IF NOT EXISTS label_moves (seq INTEGER PRIMARY KEY AUTOINCREMENT,
      path TEXT NOT NULL, label TEXT NOT NULL,
      from_version INTEGER, to_version INTEGER, by TEXT NOT NULL, why TEXT NOT NULL, at INTEGER NOT NULL)`);
    this.sql.exec("CREATE INDEX IF NOT EXISTS label_moves_path ON label_moves (path, label, seq)");
  }

  async list(): Promise<PromptSummary[]> {
    const rows = this.sql
      .exec<{
        path: string;
        latest: number;
        at: number;
      }>("SELECT path, MAX(version) AS latest, MAX(at) AS at FROM versions GROUP BY path ORDER BY path")
      .toArray();
    return rows.map((r) => ({ path: r.path, latest: r.latest, updatedAt: r.at, labels: this.labelsOf(r.path) }));
  }

  async versions(
    path: string,
  ): Promise<{ versions: Array<Omit<PromptVersion, "text">>; labels: Record<string, number> }> {
    const rows = this.sql
      .exec<VersionRow>("SELECT * FROM versions WHERE path = ? ORDER BY version DESC", path)
      .toArray();
    if (!rows.length) throw new RegistryError("not_found", `No prompt ${path}`);
    return {
      versions: rows.map((r) => {
        const { text: _t, ...rest } = toVersion(r);
        return rest;
      }),
      labels: this.labelsOf(path),
    };
  }

  /** A version by number or by label. */
  async version(path: string, ref: { version?: number; label?: string }): Promise<PromptVersion> {
    const number = ref.version ?? (ref.label ? this.labelsOf(path)[ref.label] : undefined);
    if (number === undefined)
      throw new RegistryError("not_found", `Prompt ${path} has no label ${JSON.stringify(ref.label)}`);
    const row = this.sql
      .exec<VersionRow>("SELECT * FROM versions WHERE path = ? AND version = ?", path, number)
      .toArray()[0];
    if (!row) throw new RegistryError("not_found", `Prompt ${path} has no version ${number}`);
    return toVersion(row);
  }

  /**
   * A new immutable version; `latest` follows it by itself, and `labels` (e.g. `candidate`) are
   * moved to it in the same transaction. Declared variables must be exactly those the text uses,
   * and only those the path allows (an agent's system prompt: strategies, guidance).
   */
  async save(path: string, input: SaveInput): Promise<PromptVersion> {
    const used = variablesOf(input.text);
    if (input.variables) {
      const undeclared = used.find((v) => !input.variables!.includes(v));
      if (undeclared)
        throw new RegistryError("validation_failed", `${path}: the text uses {{${undeclared}}}, which is not declared`);
      const unused = input.variables.find((v) => !used.includes(v));
      if (unused)
        throw new RegistryError(
          "validation_failed",
          `${path}: variable ${JSON.stringify(unused)} is declared but the text never uses it`,
        );
    }
    const allowed = allowedVariables(path);
    const foreign = allowed && used.find((v) => !allowed.includes(v));
    if (foreign) {
      throw new RegistryError(
        "validation_failed",
        `${path}: unknown variable {{${foreign}}}; this prompt may use ` +
          (allowed!.length ? allowed!.map((v) => `{{${v}}}`).join(", ") : "no variables"),
      );
    }
    return this.ctx.storage.transactionSync(() => {
      const latest = this.labelsOf(path)[LABELS.latest] ?? 0;
      const parent = input.parent ?? (latest || null);
      if (parent !== null && !this.exists(path, parent))
        throw new RegistryError("validation_failed", `${path}: parent version ${parent} does not exist`);
      const version = latest + 1;
      const at = Date.now();
      this.sql.exec(
        "INSERT INTO versions (path, version, text, variables, author, parent, note, at) VALUES (?, ?, ?, " +
          "?, ?, ?, ?, ?)",
        path,
        version,
        input.text,
        JSON.stringify(used),
        input.author,
        parent,
        input.note ?? "",
        at,
      );
      this.move(path, LABELS.latest, version, input.author, `saved version ${version}`);
      for (const label of input.labels ?? [])
        this.move(path, label, version, input.author, input.note || `saved version ${version}`);
      return toVersion({
        path,
        version,
        text: input.text,
        variables: JSON.stringify(used),
        author: input.author,
        parent,
        note: input.note ?? "",
        at,
      });
    });
  }

  /** Moves a label (null removes it). `latest` moves only by itself; `production` can be moved, never removed. */
  async moveLabel(path: string, label: string, version: number | null, by: string, why: string): Promise<LabelMove> {
    if (label === LABELS.latest)
      throw new RegistryError("validation_failed", "The latest label follows the newest version by itself");
    if (version === null && label === LABELS.production)
      throw new RegistryError("validation_failed", "production cannot be removed; move it to another version");
    if (version !== null && !this.exists(path, version))
      throw new RegistryError("not_found", `Prompt ${path} has no version ${version}`);
    return this.ctx.storage.transactionSync(() => this.move(path, label, version, by, why));
  }

  /** Label moves, newest first; one label's or all of the path's. */
  async history(path: string, label?: string, limit = 100): Promise<LabelMove[]> {
    const rows = label
      ? this.sql.exec<MoveRow>(
          "SELECT * FROM label_moves WHERE path = ? AND label = ? ORDER BY seq DESC LIMIT ?",
          path,
          label,
          limit,
        )
      : this.sql.exec<MoveRow>("SELECT * FROM label_moves WHERE path = ? ORDER BY seq DESC LIMIT ?", path, limit);
    return rows.toArray().map(toMove);
  }

  /**
   * The agent's parts at `label` (production by default), seeding version 1 of a part that does
   * not exist yet from the agent's config, and its compiled system prompt.
   */
  async agentPrompt(
    agentId: string,
    seed: Record<(typeof AGENT_PARTS)[number], string>,
    label: string = LABELS.production,
  ) {
    const parts = {} as AgentParts;
    for (const part of AGENT_PARTS) {
      const path = `${agentId}/${part}`;
      this.seed(path, seed[part]);
      const v = await this.version(path, { label }).catch(() => this.version(path, { label: LABELS.production }));
      parts[part] = { text: v.text, variables: v.variables, version: v.version };
    }
    return {
      text: composeAgentPrompt(parts, agentId),
      versions: {
        system: parts.system.version,
        strategies: parts.strategies.version,
        guidance: parts.guidance.version,
      },
      parts,
    };
  }

  /** A desk prompt at production, seeded from the built-in text on first use. */
  async deskPrompt(path: string): Promise<PromptVersion> {
    const text = DESK_PROMPT_SEEDS[path];
    if (text === undefined) throw new RegistryError("not_found", `No desk prompt ${path}`);
    this.seed(path, text);
    return this.version(path, { label: LABELS.production });
  }

  /** Version 1, labelled production (and latest), unless the path has versions already. */
  private seed(path: string, text: string): void {
    if (this.exists(path, 1)) return;
    this.ctx.storage.transactionSync(() => {
      this.sql.exec(
        "INSERT OR IGNORE INTO versions (path, version, text, variables, author, parent, note, at) VALUES " +
          "(?, 1, ?, ?, 'seed', NULL, ?, ?)",
        path,
        text,
        JSON.stringify(variablesOf(text)),
        "seeded from the configuration",
        Date.now(),
      );
      this.move(path, LABELS.latest, 1, "seed", "seeded version 1");
      this.move(path, LABELS.production, 1, "seed", "seeded version 1");
    });
  }

  private exists(path: string, version: number): boolean {
    return this.sql.exec("SELECT 1 FROM versions WHERE path = ? AND version = ?", path, version).toArray().length > 0;
  }

  private labelsOf(path: string): Record<string, number> {
    const rows = this.sql
      .exec<{ label: string; version: number }>("SELECT label, version FROM labels WHERE path = ?", path)
      .toArray();
    return Object.fromEntries(rows.map((r) => [r.label, r.version]));
  }

  private move(path: string, label: string, to: number | null, by: string, why: string): LabelMove {
    const from = this.labelsOf(path)[label] ?? null;
    if (to === null) this.sql.exec("DELETE FROM labels WHERE path = ? AND label = ?", path, label);
    else
      this.sql.exec(
        "INSERT INTO labels (path, label, version) VALUES (?, ?, ?) ON CONFLICT(path, label) DO UPDATE SET " +
          "version = excluded.version",
        path,
        label,
        to,
      );
    const at = Date.now();
    const seq = this.sql
      .exec<{
        seq: number;
      }>(
        "INSERT INTO label_moves (path, label, from_version, to_version, by, why, at) " +
          "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING seq",
        path,
        label,
        from,
        to,
        by,
        why,
        at,
      )
      .one().seq;
    return { seq, path, label, from, to, by, why, at };
  }
}
