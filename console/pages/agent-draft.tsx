import type { WrittenAgent } from "../../shared/wire/admin-answers.ts";
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { AgentConfig } from "../../shared/config/agent-config.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api, session } from "../api.ts";
import { locale, t } from "../i18n.ts";

const S = {
  save: { en: "Save draft", "zh-CN": "保存草稿" },
  tryIt: { en: "Try draft", "zh-CN": "试用草稿" },
  publish: { en: "Publish draft", "zh-CN": "发布草稿" },
  saved: {
    en: "Draft saved. Visitors still get the published agent.",
    "zh-CN": "草稿已保存。访客仍使用已发布的版本。",
  },
  loaded: { en: "Editing the saved draft (not published yet).", "zh-CN": "正在编辑已保存的草稿(尚未发布)。" },
  published: { en: "Published. Visitors get it within {s} s.", "zh-CN": "已发布。{s} 秒内对访客生效。" },
  title: { en: "Draft", "zh-CN": "草稿" },
  frame: { en: "Draft preview: {a}", "zh-CN": "草稿预览:{a}" },
};

/**
 * The agent's draft: saved apart from the published agent, tried in a frame of the embed page that
 * runs the draft (`draft=1`: the worker opens it for this console's cookie only), then published.
 * Each button sends what the form shows now; `current` returns null when the form has errors.
 */
export function DraftPanel(props: {
  id: string;
  current: () => unknown;
  onDraft: (agent: AgentConfig) => void;
  onPublished: (l: WrittenAgent) => void;
  onError: (err: unknown) => void;
}) {
  const status = useSignal("");
  const tries = useSignal(0);
  const params = { agent: props.id };

  useEffect(() => {
    // A draft saved earlier is what the owner was working on: the form opens on it. None is a 404.
    api.get(ROUTES.adminAgentDraft, { params }).then(
      (d) => {
        props.onDraft(d.agent);
        status.value = t(S.loaded);
      },
      () => {},
    );
  }, [props.id]);

  async function save(): Promise<boolean> {
    const agent = props.current();
    if (agent === null) return false;
    try {
      await api.put(ROUTES.adminAgentDraft, { params, json: agent });
      status.value = t(S.saved);
      return true;
    } catch (err) {
      status.value = "";
      props.onError(err);
      return false;
    }
  }

  async function tryIt() {
    if (await save()) tries.value++;
  }

  async function publish() {
    if (!(await save())) return;
    try {
      const answer = await api.post(ROUTES.adminAgentDraftPublish, { params });
      props.onPublished(answer);
      status.value = t(S.published).replace("{s}", String(answer.takesEffectWithinMs / 1000));
    } catch (err) {
      props.onError(err);
    }
  }

  const site = session.value?.site ?? "";
  const src =
    `/embed/${encodeURIComponent(props.id)}?site=${encodeURIComponent(site)}` + `&locale=${locale.value}&draft=1`;
  return (
    <section class="draft" aria-labelledby="agent-draft-title">
      <h2 id="agent-draft-title">{t(S.title)}</h2>
      <button type="button" class="secondary" onClick={save}>
        {t(S.save)}
      </button>{" "}
      <button type="button" class="secondary" onClick={tryIt}>
        {t(S.tryIt)}
      </button>{" "}
      <button type="button" onClick={publish}>
        {t(S.publish)}
      </button>
      <p role="status">{status.value}</p>
      {tries.value > 0 && (
        <iframe class="preview draft-preview" key={tries.value} src={src} title={t(S.frame).replace("{a}", props.id)} />
      )}
    </section>
  );
}
