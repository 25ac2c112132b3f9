import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { DeskQueue } from "../../shared/wire/admin-answers.ts";
import type { RunRecord, RunSummary } from "../../shared/admin/desk-records.ts";
import { api } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import type { PageProps } from "../pages.ts";
import { Field, TextField } from "../form/field.tsx";
import { errorUnder, formErrors, type FormErrors } from "../form/issues.ts";
import { SideBySide } from "../form/side-by-side.tsx";
import { useAgentChoice } from "../form/agent-choice.ts";
import { DeskRequests } from "./desk-requests.tsx";
import { SpanTree } from "./desk-trace.tsx";
import { TableHead } from "../form/table-head.tsx";

type Diff = { part: string; from: number; to: number; diff: string };

const S = {
  title: { en: "Strategy desk", "zh-CN": "策略台" },
  intro: {
    en:
      "Requests (thumbs-down comments, the agent's own suggestions, your notes) wait here; " +
      "a run edits the agent's strategies and guidance, a reviewer scores the change, " +
      "and a passing candidate waits for you unless auto-promotion is on (Setup).",
    "zh-CN":
      "请求(差评意见、助手自己的建议、你的备注)在此排队;一次运行会修改助手的策略和指引,由审核者打分,通过的候选版本等待你发布,除非在站点设置中开启了自动发布。",
  },
  agent: { en: "Agent", "zh-CN": "助手" },
  queue: { en: "Queue", "zh-CN": "队列" },
  empty: { en: "Nothing waits.", "zh-CN": "没有等待的请求。" },
  next: { en: "Next run: {t}", "zh-CN": "下次运行:{t}" },
  note: { en: "Your note for the desk", "zh-CN": "给策略台的备注" },
  add: { en: "Add the note", "zh-CN": "添加备注" },
  runNow: { en: "Run now", "zh-CN": "立即运行" },
  started: { en: "Run requested.", "zh-CN": "已请求运行。" },
  runs: { en: "Runs", "zh-CN": "运行记录" },
  refresh: { en: "Refresh", "zh-CN": "刷新" },
  status: { en: "Status", "zh-CN": "状态" },
  when: { en: "Started", "zh-CN": "开始时间" },
  scores: { en: "Reviewer's scores", "zh-CN": "审核得分" },
  gate: { en: "Regression gate", "zh-CN": "回归检查" },
  tokens: { en: "Tokens", "zh-CN": "令牌" },
  open: { en: "Details of run {r}", "zh-CN": "运行 {r} 的详情" },
  details: { en: "Details", "zh-CN": "详情" },
  reasons: { en: "Reasons", "zh-CN": "原因" },
  trace: { en: "Steps", "zh-CN": "步骤" },
  diff: { en: "The candidate against production: {p}", "zh-CN": "候选版本与生产版本对比:{p}" },
  why: { en: "Why", "zh-CN": "原因" },
  promote: { en: "Promote", "zh-CN": "发布" },
  reject: { en: "Reject", "zh-CN": "拒绝" },
  done: { en: "Done: the run is now {s}.", "zh-CN": "完成:运行状态为 {s}。" },
  passed: { en: "passed ({c} cases)", "zh-CN": "通过({c} 个用例)" },
  refused: { en: "refused: {w} of {c} worse", "zh-CN": "未通过:{c} 个中 {w} 个更差" },
  screened: { en: "refused: {r}", "zh-CN": "未通过:{r}" },
  knowingly: {
    en: "The regression gate refused this candidate (see the reasons). Promote it only if you know why it is right.",
    "zh-CN": "回归检查未通过此候选版本(见原因)。只有在你确认它正确时才发布。",
  },
};

/** The strategy desk of one agent: its queue, its runs with each agent's steps and scores, the candidate's diff. */
export default function Desk(_: PageProps) {
  const { agents, agent } = useAgentChoice();
  const queue = useSignal<DeskQueue | null>(null);
  const runs = useSignal<RunSummary[]>([]);
  const open = useSignal<RunRecord | null>(null);
  const diffs = useSignal<Diff[]>([]);
  const note = useSignal("");
  const why = useSignal("");
  const status = useSignal("");
  const errors = useSignal<FormErrors>({ fields: {}, summary: "" });

  const a = () => ({ agent: agent.value });
  async function refresh() {
    const asked = agent.value;
    if (!asked) return;
    try {
      const [q, r] = await Promise.all([
        api.get(ROUTES.adminDeskQueue, { params: { agent: asked } }),
        api.get(ROUTES.adminDeskRuns, { params: { agent: asked } }),
      ]);
      // A slower answer for an agent the owner has since left must not replace the one now chosen.
      if (asked !== agent.value) return;
      queue.value = q;
      runs.value = r.runs;
    } catch (err) {
      errors.value = formErrors(err);
    }
  }
  useEffect(() => {
    open.value = null;
    void refresh();
  }, [agent.value]);

  async function details(run: RunSummary) {
    open.value = await api.get(ROUTES.adminDeskRunDetail, { params: { ...a(), run: run.id } });
    const parts = Object.entries(run.candidate) as Array<[string, number]>;
    diffs.value = await Promise.all(
      parts.map(async ([part, version]) => {
        const d = await api.get(ROUTES.adminPromptDiff, {
          params: { agent: agent.value, name: part },
          query: { from: "production", to: String(version) },
        });
        return { part, ...d };
      }),
    );
  }

  async function act(
    e: Event,
    route: typeof ROUTES.adminDeskNotes | typeof ROUTES.adminDeskRun,
    body: unknown,
    then: string,
  ) {
    e.preventDefault();
    try {
      await api.post(route, { params: a(), json: body });
      errors.value = { fields: {}, summary: "" };
      status.value = then;
      await refresh();
    } catch (err) {
      errors.value = formErrors(err);
    }
  }

  async function decide(verdict: "promote" | "reject") {
    const run = open.value;
    if (!run) return;
    const params = { ...a(), run: run.id };
    const route = verdict === "promote" ? ROUTES.adminDeskPromote : ROUTES.adminDeskReject;
    try {
      await api.post(route, { params, json: { why: why.value } });
      why.value = "";
      await refresh();
      const now = runs.value.find((r) => r.id === run.id);
      if (now) await details(now);
      status.value = t(S.done).replace("{s}", now?.status ?? "");
      errors.value = { fields: {}, summary: "" };
    } catch (err) {
      errors.value = formErrors(err);
    }
  }

  const gate = (g: RunSummary["gate"]) =>
    !g
      ? ""
      : g.passed
        ? t(S.passed).replace("{c}", String(g.cases))
        : g.refusals?.length
          ? t(S.screened).replace("{r}", g.refusals.join("; "))
          : t(S.refused).replace("{w}", String(g.worse)).replace("{c}", String(g.cases));
  const r = open.value;
  return (
    <section aria-labelledby="desk-title">
      <h1 id="desk-title">{t(S.title)}</h1>
      <p class="hint">{t(S.intro)}</p>
      <Field id="desk-agent" label={t(S.agent)}>
        <select id="desk-agent" value={agent.value} onChange={(e) => (agent.value = e.currentTarget.value)}>
          {agents.value.map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
      </Field>
      <p role="status">{status.value}</p>
      <h2>{t(S.queue)}</h2>
      {queue.value && queue.value.queue.length === 0 && <p>{t(S.empty)}</p>}
      <ul>
        {queue.value?.queue.map((q) => (
          <li key={q.id}>
            {formatTime(q.at)} · {q.source}: {q.text}
          </li>
        ))}
      </ul>
      {queue.value?.nextRunAt && <p>{t(S.next).replace("{t}", formatTime(queue.value.nextRunAt))}</p>}
      <form onSubmit={(e) => act(e, ROUTES.adminDeskNotes, { text: note.value }, t(S.started))}>
        <TextField
          id="desk-note"
          label={t(S.note)}
          value={note.value}
          onValue={(v) => (note.value = v)}
          error={errorUnder(errors.value, "text")}
        />
        <button type="submit">{t(S.add)}</button>{" "}
        <button type="button" class="secondary" onClick={(e) => act(e, ROUTES.adminDeskRun, {}, t(S.started))}>
          {t(S.runNow)}
        </button>
      </form>
      <h2>{t(S.runs)}</h2>
      <button type="button" class="secondary" onClick={() => refresh()}>
        {t(S.refresh)}
      </button>
      <table>
        <TableHead cols={[S.when, S.status, S.scores, S.gate, S.tokens, S.details]} />
        <tbody>
          {runs.value.map((run) => (
            <tr key={run.id}>
              <td>{formatTime(run.startedAt)}</td>
              <td>{run.status}</td>
              <td>{run.scores.join(" → ")}</td>
              <td>{gate(run.gate)}</td>
              <td>{run.tokens}</td>
              <td>
                <button type="button" class="secondary" onClick={() => details(run)}>
                  {t(S.open).replace("{r}", formatTime(run.startedAt))}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {r && (
        <article aria-labelledby="run-title" class="run">
          <h2 id="run-title">
            {t(S.open).replace("{r}", formatTime(r.startedAt))}: {r.status}
          </h2>
          {r.reasons.length > 0 && (
            <>
              <h3>{t(S.reasons)}</h3>
              <ul>
                {r.reasons.map((x, i) => (
                  <li key={i}>{x}</li>
                ))}
              </ul>
            </>
          )}
          <div class="desk-review">
            <DeskRequests requests={r.requests} />
            <div>
              {diffs.value.map((d) => (
                <div key={d.part}>
                  <h3>{t(S.diff).replace("{p}", d.part)}</h3>
                  <SideBySide diff={d.diff} from={d.from} to={d.to} />
                </div>
              ))}
            </div>
          </div>
          {(r.status === "candidate" || r.status === "refused") && (
            <form onSubmit={(e) => (e.preventDefault(), decide("promote"))}>
              {r.status === "refused" && <p class="hint">{t(S.knowingly)}</p>}
              <TextField
                id="run-why"
                label={t(S.why)}
                value={why.value}
                onValue={(v) => (why.value = v)}
                error={errorUnder(errors.value, "why")}
              />
              <button type="submit">{t(S.promote)}</button>{" "}
              <button type="button" class="danger" onClick={() => decide("reject")}>
                {t(S.reject)}
              </button>
            </form>
          )}
          {r.trace && (
            <>
              <h3>{t(S.trace)}</h3>
              <ul class="trace">
                <SpanTree span={r.trace} />
              </ul>
            </>
          )}
        </article>
      )}
      <p role="alert">{errors.value.summary}</p>
    </section>
  );
}
