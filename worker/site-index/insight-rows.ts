import type { InsightRow } from "../../shared/admin/conversation-query.ts";

type Row = Record<string, SqlStorageValue>;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The insights of a site's index: per UTC day and agent (or across agents, `byAgent` false: agent
 * `*`), conversations, messages and feedback by the day they were opened; tokens, answers, tool
 * calls and first-byte percentiles by the day each step happened.
 */
export function insightRows(
  sql: SqlStorage,
  from: number,
  to: number,
  agent: string | undefined,
  byAgent: boolean,
): InsightRow[] {
  const [fromDay, toDay] = [day(from), day(to - 1)];
  const agentClause = agent ? " AND agent = ?" : "";
  const ag = byAgent ? "agent" : "'*'";
  const extra = agent ? [agent] : [];
  const rows = new Map<string, InsightRow>();
  const rowOf = (d: string, a: string) => {
    const key = `${d}|${a}`;
    let r = rows.get(key);
    if (!r) {
      r = {
        day: d,
        agent: a,
        conversations: 0,
        messages: 0,
        tokens: 0,
        answers: 0,
        quickAnswers: 0,
        ttftP50: null,
        ttftP95: null,
        toolCalls: 0,
        toolFailures: 0,
        feedbackUp: 0,
        feedbackDown: 0,
      };
      rows.set(key, r);
    }
    return r;
  };
  const sessions = sql.exec<Row>(
    `SELECT day, ${ag} agent, COUNT(*) n, SUM(messages) m, SUM(fb_up) up, SUM(fb_down) down FROM sessions ` +
      `WHERE opened >= ? AND opened < ?${agentClause} GROUP BY day, ${ag}`,
    from,
    to,
    ...extra,
  );
  for (const s of sessions) {
    Object.assign(rowOf(String(s.day), String(s.agent)), {
      conversations: Number(s.n),
      messages: Number(s.m),
      feedbackUp: Number(s.up),
      feedbackDown: Number(s.down),
    });
  }
  const steps = sql.exec<Row>(
    `SELECT day, ${ag} agent, SUM(CASE WHEN kind = 'completion' THEN tokens ELSE 0 END) tokens, ` +
      "SUM(answer) answers, " +
      "SUM(CASE WHEN answer = 1 AND purpose = 'quick' THEN 1 ELSE 0 END) quick, " +
      "SUM(CASE WHEN kind = 'tool' THEN 1 ELSE 0 END) tools, " +
      "SUM(CASE WHEN kind = 'tool' AND ok = 0 THEN 1 ELSE 0 END) fails FROM steps " +
      `WHERE day >= ? AND day <= ?${agentClause} GROUP BY day, ${ag}`,
    fromDay,
    toDay,
    ...extra,
  );
  for (const s of steps) {
    Object.assign(rowOf(String(s.day), String(s.agent)), {
      tokens: Number(s.tokens),
      answers: Number(s.answers),
      quickAnswers: Number(s.quick),
      toolCalls: Number(s.tools),
      toolFailures: Number(s.fails),
    });
  }
  const firsts = sql.exec<{ day: string; agent: string; ms: number }>(
    `SELECT day, ${ag} agent, first_ms ms FROM steps WHERE kind = 'completion' AND purpose != 'classify' ` +
      `AND first_ms IS NOT NULL AND day >= ? AND day <= ?${agentClause} ORDER BY day, ${ag}, first_ms`,
    fromDay,
    toDay,
    ...extra,
  );
  const byKey = new Map<string, number[]>();
  for (const f of firsts) {
    const key = `${f.day}|${f.agent}`;
    byKey.set(key, [...(byKey.get(key) ?? []), f.ms]);
  }
  for (const [key, values] of byKey) {
    const [d, a] = key.split("|");
    Object.assign(rowOf(d, a), { ttftP50: percentile(values, 0.5), ttftP95: percentile(values, 0.95) });
  }
  return [...rows.values()].sort((x, y) => x.day.localeCompare(y.day) || x.agent.localeCompare(y.agent));
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}
