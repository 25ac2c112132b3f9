import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { AUDIT_ACTIONS, type AuditEntry } from "../../shared/admin/audit.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { downloadFile } from "../download.ts";
import { formatTime, t } from "../i18n.ts";
import { TableHead } from "../form/table-head.tsx";

const S = {
  title: { en: "Audit", "zh-CN": "审计" },
  intro: {
    en:
      "Who did what, when and from where: sign-ins, team changes, settings, publishing, " +
      "takeovers, and every read, export and erasure of a conversation. Entries name ids, never " +
      "what a conversation says; each carries the hash of the one before, so a changed or removed " +
      "entry shows.",
    "zh-CN":
      "谁在何时、从何处做了什么:登录、团队变更、设置、发布、人工接管,以及每次查看、导出和删除对话。记录只写编号,从不写对话内容;每条记录都带有上一条的哈希,任何修改或删除都会被发现。",
  },
  filters: { en: "Filters", "zh-CN": "筛选" },
  who: { en: "Person or key (name or id)", "zh-CN": "人员或密钥(名字或编号)" },
  action: { en: "Action", "zh-CN": "操作" },
  any: { en: "Any", "zh-CN": "全部" },
  object: { en: "Object id", "zh-CN": "对象编号" },
  from: { en: "From (date)", "zh-CN": "开始日期" },
  to: { en: "Until (date)", "zh-CN": "结束日期" },
  apply: { en: "Apply filters", "zh-CN": "应用筛选" },
  time: { en: "Time", "zh-CN": "时间" },
  whoCol: { en: "Who", "zh-CN": "人员" },
  objectCol: { en: "Object", "zh-CN": "对象" },
  outcome: { en: "Outcome", "zh-CN": "结果" },
  where: { en: "From", "zh-CN": "来源" },
  none: { en: "No entries.", "zh-CN": "没有记录。" },
  more: { en: "Older entries", "zh-CN": "更早的记录" },
  verify: { en: "Verify the chain", "zh-CN": "校验记录链" },
  intact: { en: "The chain is intact: {n} entries checked.", "zh-CN": "记录链完整:已校验 {n} 条。" },
  broken: {
    en: "The chain is broken at entry #{seq} ({time}): {reason}. Entries before it were checked ({n}).",
    "zh-CN": "记录链在第 {seq} 条({time})断开:{reason}。之前的 {n} 条已校验。",
  },
  reason: {
    hash: { en: "the entry was changed", "zh-CN": "该记录被修改" },
    link: { en: "it does not follow the entry before", "zh-CN": "与上一条记录不衔接" },
    gap: { en: "an entry before it is missing", "zh-CN": "之前缺少记录" },
  },
  csv: { en: "Export CSV", "zh-CN": "导出 CSV" },
  json: { en: "Export JSON", "zh-CN": "导出 JSON" },
  failed: { en: "Not done: {m}", "zh-CN": "未完成:{m}" },
  anonymous: { en: "(unknown)", "zh-CN": "(未知)" },
};

const dayStart = (date: string) => (date ? String(Date.parse(`${date}T00:00:00`)) : undefined);
const dayEnd = (date: string) => (date ? String(Date.parse(`${date}T00:00:00`) + 86_400_000) : undefined);

/** /console/audit (owners): the site's audit trail, filtered, exported, its chain verified. */
export default function Audit() {
  const who = useSignal("");
  const action = useSignal("");
  const object = useSignal("");
  const from = useSignal("");
  const to = useSignal("");
  const entries = useSignal<AuditEntry[]>([]);
  const next = useSignal<number | undefined>(undefined);
  const status = useSignal("");
  const verdict = useSignal("");

  const query = () => ({
    who: who.value.trim() || undefined,
    action: action.value || undefined,
    object: object.value.trim() || undefined,
    from: dayStart(from.value),
    to: dayEnd(to.value),
  });
  async function load(before?: number) {
    try {
      const page = await api.get(ROUTES.adminAudit, { query: { ...query(), before } });
      entries.value = before ? [...entries.value, ...page.entries] : page.entries;
      next.value = page.next;
      status.value = "";
    } catch (e) {
      status.value = t(S.failed).replace("{m}", e instanceof Error ? e.message : String(e));
    }
  }
  useEffect(() => void load(), []);

  async function verify() {
    try {
      const v = await api.get(ROUTES.adminAuditVerify);
      verdict.value = v.firstBroken
        ? t(S.broken)
            .replace("{seq}", String(v.firstBroken.seq))
            .replace("{time}", formatTime(v.firstBroken.at))
            .replace("{reason}", t(S.reason[v.firstBroken.reason]))
            .replace("{n}", String(v.checked))
        : t(S.intact).replace("{n}", String(v.checked));
    } catch (e) {
      verdict.value = t(S.failed).replace("{m}", e instanceof Error ? e.message : String(e));
    }
  }

  async function exportAs(format: "csv" | "json") {
    const q = new URLSearchParams({ format });
    for (const [k, v] of Object.entries(query())) if (v) q.set(k, v);
    try {
      await downloadFile(`${ROUTES.adminAudit}?${q}`, `audit.${format}`);
    } catch (e) {
      status.value = t(S.failed).replace("{m}", e instanceof Error ? e.message : String(e));
    }
  }

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t(S.title)}</h1>
      <p>{t(S.intro)}</p>
      <p class="actions">
        <button type="button" onClick={verify}>
          {t(S.verify)}
        </button>
        <button type="button" class="secondary" onClick={() => exportAs("csv")}>
          {t(S.csv)}
        </button>
        <button type="button" class="secondary" onClick={() => exportAs("json")}>
          {t(S.json)}
        </button>
      </p>
      <p role="status">{verdict.value}</p>
      <form
        class="inline-form"
        aria-label={t(S.filters)}
        onSubmit={(e) => {
          e.preventDefault();
          void load();
        }}
      >
        <div class="field">
          <label for="audit-who">{t(S.who)}</label>
          <input id="audit-who" value={who.value} onInput={(e) => (who.value = e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="audit-action">{t(S.action)}</label>
          <select id="audit-action" value={action.value} onChange={(e) => (action.value = e.currentTarget.value)}>
            <option value="">{t(S.any)}</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="audit-object">{t(S.object)}</label>
          <input id="audit-object" value={object.value} onInput={(e) => (object.value = e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="audit-from">{t(S.from)}</label>
          <input id="audit-from" type="date" value={from.value} onInput={(e) => (from.value = e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="audit-to">{t(S.to)}</label>
          <input id="audit-to" type="date" value={to.value} onInput={(e) => (to.value = e.currentTarget.value)} />
        </div>
        <button type="submit">{t(S.apply)}</button>
      </form>
      {status.value && <p role="alert">{status.value}</p>}
      {!entries.value.length && <p>{t(S.none)}</p>}
      {entries.value.length > 0 && (
        <table class="audit">
          <TableHead cols={[S.time, S.whoCol, S.action, S.objectCol, S.outcome, S.where]} />
          <tbody>
            {entries.value.map((e) => (
              <tr key={e.seq} data-seq={e.seq}>
                <td>{formatTime(e.at)}</td>
                <td>
                  {e.actorName || t(S.anonymous)} <span class="muted">({e.actorKind})</span>
                </td>
                <td>
                  <code>{e.action}</code>
                </td>
                <td>
                  <code>{e.object}</code>
                </td>
                <td>
                  {e.outcome}
                  {e.code && <span class="muted"> ({e.code})</span>}
                </td>
                <td>
                  {e.ip} <span class="muted">{e.userAgent.slice(0, 40)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next.value !== undefined && (
        <button type="button" class="secondary" onClick={() => load(next.value)}>
          {t(S.more)}
        </button>
      )}
    </section>
  );
}
