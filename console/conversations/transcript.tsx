import type { SessionState } from "../../shared/session/session.ts";
import { routePath } from "../../shared/wire/route-path.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { formatTime, t } from "../i18n.ts";
import { RichText } from "./rich-text.tsx";
import type { Advice, StoredMessage } from "../../shared/session/session-events.ts";

const S = {
  visitor: { en: "Visitor", "zh-CN": "访客" },
  assistant: { en: "Assistant", "zh-CN": "助手" },
  tool: { en: "Tool result", "zh-CN": "工具结果" },
  called: { en: "Called", "zh-CN": "调用了" },
  interrupted: { en: "Interrupted: the reply was cut before its end.", "zh-CN": "已中断:回复未完成。" },
  advice: { en: "Advice card", "zh-CN": "建议卡片" },
  evidence: { en: "Evidence", "zh-CN": "依据" },
  urgent: { en: "Emergency card shown", "zh-CN": "已显示紧急卡片" },
  up: { en: "Visitor rated this reply: thumbs up", "zh-CN": "访客评价:赞" },
  down: { en: "Visitor rated this reply: thumbs down", "zh-CN": "访客评价:踩" },
  comment: { en: "Comment", "zh-CN": "评论" },
  reasoning: { en: "How the model got there", "zh-CN": "模型的思考过程" },
  photo: { en: "Photo from the visitor", "zh-CN": "访客上传的照片" },
  stages: { en: "Stage values", "zh-CN": "阶段数据" },
  completed: { en: "completed", "zh-CN": "已完成" },
  current: { en: "current", "zh-CN": "进行中" },
  staff: { en: "{name} (staff)", "zh-CN": "{name}(工作人员)" },
  contact: { en: "Contact left by the visitor", "zh-CN": "访客留下的联系方式" },
};

function AdviceCard({ advice }: { advice: Advice }) {
  return (
    <aside class={`advice ${advice.severity}`} aria-label={`${t(S.advice)}: ${advice.title}`}>
      <p class="advice-title">
        <strong>{advice.title}</strong> <span class="muted">({advice.severity})</span>
      </p>
      <RichText text={advice.content} />
      {advice.evidence.length > 0 && (
        <p class="muted">
          {t(S.evidence)}: {advice.evidence.join("; ")}
        </p>
      )}
    </aside>
  );
}

function Message({ m, state }: { m: StoredMessage; state: SessionState }) {
  const role = m.role === "user" ? S.visitor : m.role === "assistant" ? S.assistant : S.tool;
  const advice = state.advice.filter((a) => a.messageId === m.id);
  const escalation = (state.escalations ?? []).find((e) => e.messageId === m.id);
  const fb = state.feedback?.[m.id];
  if (m.role === "tool")
    return (
      <li class="msg tool">
        <details>
          <summary>
            {t(role)} · {formatTime(m.at)}
          </summary>
          <pre>{m.content}</pre>
        </details>
      </li>
    );
  return (
    <li class={`msg ${m.role}`}>
      <p class="who">
        <strong>{m.author ? t(S.staff).replace("{name}", m.author.name) : t(role)}</strong>{" "}
        <span class="muted">{formatTime(m.at)}</span>
      </p>
      {m.reasoning && (
        <details>
          <summary>{t(S.reasoning)}</summary>
          <RichText text={m.reasoning} />
        </details>
      )}
      {m.content && <RichText text={m.content} />}
      {(m.photos ?? []).map((p) => (
        <img
          key={p}
          class="photo"
          alt={t(S.photo)}
          src={routePath(ROUTES.adminPhoto, { id: state.sessionId, photoId: p })}
        />
      ))}
      {m.toolCalls?.map((c) => (
        <p key={c.id} class="muted">
          {t(S.called)} <code>{c.function.name}</code> <code>{c.function.arguments}</code>
        </p>
      ))}
      {m.status === "interrupted" && <p class="warn">{t(S.interrupted)}</p>}
      {escalation && (
        <aside class="advice urgent" aria-label={t(S.urgent)}>
          <p>
            <strong>{escalation.title}</strong> <span class="muted">({escalation.category})</span>
          </p>
          <p>{escalation.body}</p>
        </aside>
      )}
      {advice.map((a) => (
        <AdviceCard key={a.id} advice={a} />
      ))}
      {fb && (
        <p class={`feedback ${fb.rating}`}>
          {t(fb.rating === "up" ? S.up : S.down)}
          {fb.comment ? (
            <>
              {" · "}
              {t(S.comment)}: <q>{fb.comment}</q>
            </>
          ) : null}
        </p>
      )}
    </li>
  );
}

/** The conversation as the visitor saw it: messages, advice and emergency cards, ratings, photos. */
export function Transcript({ state }: { state: SessionState }) {
  return (
    <ol class="transcript">
      {state.messages.map((m) => (
        <Message key={m.id} m={m} state={state} />
      ))}
    </ol>
  );
}

/** Contacts the visitor left when nobody from the staff was available (takeover). */
export function Contacts({ state }: { state: SessionState }) {
  return (
    <>
      {(state.contacts ?? []).map((c) => (
        <aside key={c.at} class="advice info" aria-label={t(S.contact)}>
          <p>
            <strong>{t(S.contact)}</strong> <span class="muted">{formatTime(c.at)}</span>
          </p>
          <p>
            {c.name ? `${c.name} · ` : ""}
            {c.contact}
          </p>
          {c.note && <p>{c.note}</p>}
        </aside>
      ))}
    </>
  );
}

/** What the stage workflow collected, stage by stage, as the visitor's panel showed it. */
export function StageValues({ state }: { state: SessionState }) {
  const stages = Object.entries(state.context ?? {});
  if (!stages.length) return null;
  return (
    <section aria-labelledby="stage-values">
      <h2 id="stage-values">{t(S.stages)}</h2>
      {stages.map(([stage, values]) => (
        <div key={stage}>
          <h3>
            {stage}{" "}
            <span class="muted">
              {state.stage.completed.includes(stage)
                ? t(S.completed)
                : state.stage.current === stage
                  ? t(S.current)
                  : ""}
            </span>
          </h3>
          <dl class="values">
            {Object.entries(values).map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{Array.isArray(v) ? v.join(", ") : String(v)}</dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
    </section>
  );
}
