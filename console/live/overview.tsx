import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { LiveOverview } from "../../shared/takeover/takeover-api.ts";
import { api } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import { href, onLinkClick } from "../router.ts";
import { TableHead } from "../form/table-head.tsx";
import { session } from "../api.ts";

const S = {
  title: { en: "Live", "zh-CN": "实时" },
  name: { en: "Visitors see you as {name} when you join.", "zh-CN": "加入对话时,访客看到您的名字:{name}。" },
  available: {
    en: "You are available: visitors who ask for a person are queued here.",
    "zh-CN": "您在线:请求人工的访客会在此排队。",
  },
  hours: {
    en: "Outside the opening hours: visitors get the contact form.",
    "zh-CN": "非营业时间:访客将看到联系表单。",
  },
  off: {
    en: "Takeover is off for this site: turn it on in Setup.",
    "zh-CN": "本站点未开启转人工:请在“站点设置”中开启。",
  },
  present: { en: "{n} staff on this page", "zh-CN": "{n} 位工作人员在线" },
  queue: { en: "Waiting for a person", "zh-CN": "等待人工" },
  noQueue: { en: "Nobody is waiting.", "zh-CN": "没有等待的访客。" },
  live: { en: "Live conversations", "zh-CN": "进行中的对话" },
  noLive: { en: "No conversation in the last 15 minutes.", "zh-CN": "最近 15 分钟没有对话。" },
  first: { en: "Visitor's first message", "zh-CN": "访客的第一条消息" },
  by: { en: "Asked by", "zh-CN": "请求方" },
  reason: { en: "Reason", "zh-CN": "原因" },
  waiting: { en: "Waiting", "zh-CN": "等待时间" },
  handled: { en: "Handled by", "zh-CN": "处理者" },
  last: { en: "Last activity", "zh-CN": "最近活动" },
  visitor: { en: "visitor", "zh-CN": "访客" },
  agent: { en: "the agent", "zh-CN": "助手" },
  bot: { en: "Agent", "zh-CN": "助手" },
  since: { en: "{name} since {time}", "zh-CN": "{name}(自 {time})" },
  noText: { en: "(no message yet)", "zh-CN": "(尚无消息)" },
  failed: { en: "Could not load the live view: {m}", "zh-CN": "无法加载实时视图:{m}" },
};

const clock = (ms: number) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/**
 * /console/live: the queue (waiting times counting up each second) and the live conversations,
 * refreshed every few seconds.
 */
export function LiveOverviewPage({ present }: { present: Promise<unknown> }) {
  const view = useSignal<LiveOverview | null>(null);
  const fetchedAt = useSignal(Date.now());
  const now = useSignal(Date.now());
  const error = useSignal("");

  useEffect(() => {
    let alive = true;
    const load = async () => {
      try {
        const v = await api.get(ROUTES.adminLive);
        if (!alive) return;
        view.value = v;
        fetchedAt.value = Date.now();
        error.value = "";
      } catch (err) {
        if (alive) error.value = t(S.failed).replace("{m}", err instanceof Error ? err.message : String(err));
      }
    };
    // After the page's first heartbeat, so the presence shown includes this staff member.
    void present.then(load);
    const refresh = setInterval(load, 5000);
    const tick = setInterval(() => (now.value = Date.now()), 1000);
    return () => {
      alive = false;
      clearInterval(refresh);
      clearInterval(tick);
    };
  }, []);

  const waiting = view.value?.queue.length ?? 0;
  // The tab's title counts who waits: staff working in another tab see a visitor arrive.
  useEffect(() => {
    const title = document.title;
    if (waiting) document.title = `(${waiting}) ${title}`;
    return () => void (document.title = title);
  }, [waiting]);

  const v = view.value;
  const since = now.value - fetchedAt.value;
  return (
    <section aria-labelledby="live-title">
      <h1 id="live-title">{t(S.title)}</h1>
      <p>{t(S.name).replace("{name}", session.value?.who.name ?? "")}</p>
      {error.value && <p role="alert">{error.value}</p>}
      {v && (
        <p role="status" class={v.staff.available ? "" : "warn"}>
          {!v.staff.enabled ? t(S.off) : !v.staff.withinHours ? t(S.hours) : t(S.available)}{" "}
          <span class="muted">{t(S.present).replace("{n}", String(v.staff.present))}</span>
        </p>
      )}
      <h2 id="queue-title">{t(S.queue)}</h2>
      {v && !v.queue.length && <p>{t(S.noQueue)}</p>}
      {v && v.queue.length > 0 && (
        <table class="conversations live-queue" aria-labelledby="queue-title">
          <TableHead cols={[S.first, S.by, S.reason, S.waiting]} />
          <tbody>
            {v.queue.map((q) => {
              const path = `live/${encodeURIComponent(q.sessionId)}`;
              return (
                <tr key={q.sessionId}>
                  <th scope="row">
                    <a href={href(path)} onClick={(e) => onLinkClick(e, path)}>
                      {q.firstText || t(S.noText)}
                    </a>
                  </th>
                  <td>{t(q.by === "agent" ? S.agent : S.visitor)}</td>
                  <td>{q.reason ?? ""}</td>
                  <td class="waiting">{clock(q.waitingMs + since)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <h2 id="live-list-title">{t(S.live)}</h2>
      {v && !v.live.length && <p>{t(S.noLive)}</p>}
      {v && v.live.length > 0 && (
        <table class="conversations live-list" aria-labelledby="live-list-title">
          <TableHead cols={[S.first, S.handled, S.last]} />
          <tbody>
            {v.live.map((l) => {
              const path = `live/${encodeURIComponent(l.sessionId)}`;
              const h = l.handler;
              return (
                <tr key={l.sessionId}>
                  <th scope="row">
                    <a href={href(path)} onClick={(e) => onLinkClick(e, path)}>
                      {l.firstText || t(S.noText)}
                    </a>
                  </th>
                  <td>
                    {h.kind === "person"
                      ? t(S.since).replace("{name}", h.name).replace("{time}", formatTime(h.since))
                      : t(S.bot)}
                  </td>
                  <td>{formatTime(l.lastActivityAt)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
