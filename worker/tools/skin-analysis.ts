import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import { adviceProblem } from "../../shared/tools/advice-policy.ts";
import { adviceEvent } from "../../shared/chat/step-events.ts";
import { photoPart } from "../../shared/chat/photo-ref.ts";
import { parseToolInput, toOpenAITool, type ToolInput } from "../../shared/tools/tool.ts";
import { reportSkinFindings } from "../../shared/tools/analyze-skin-image.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { guardTurn } from "../guard/turn-guard.ts";
import { callModel } from "../llm/upstream.ts";
import { modelTargets } from "../llm/model-targets.ts";
import type { UpstreamBody } from "../llm/upstream-body.ts";
import { photoAccess } from "../photos/photo-access.ts";
import { resolvePhotoParts } from "../photos/photo-parts.ts";
import { sessionRoom } from "../objects.ts";
import type { Advice, SessionEvent } from "../../shared/session/session-events.ts";

export type SkinFindings = ToolInput<typeof reportSkinFindings>;

const SYSTEM = [
  "You examine photos of skin for a dermatology clinic's assistant. Describe only what you can see.",
  "List possible conditions with care: never certain, never a diagnosis; say what would tell them apart.",
  "Name any red flag (signs of infection with fever, rapid spread, blistering, bleeding or changing moles, " +
    "asymmetry, irregular borders, several colours) and how soon a dermatologist should see it in person.",
  "If the photo is not of skin or is too unclear, say so in the observations and recommend a routine visit.",
  "Write in the visitor's language. Call report_skin_findings.",
].join("\n");

/** The photos of the visitor's latest message that has any: what the tool examines. */
async function latestPhotos(env: Env, sessionId: string): Promise<string[]> {
  const state = await sessionRoom(env, sessionId).getState();
  return [...state.messages].reverse().find((m) => m.role === "user" && m.photos?.length)?.photos ?? [];
}

/**
 * Runs `analyze_skin_image`: the visitor's latest photos to the agent's vision model with a forced
 * `report_skin_findings` call, whose arguments are validated by the same schema. The findings
 * become an advice card (worker-made, like every card in the log) with the photos as its
 * evidence, and their red flags go through the emergency guard.
 */
export async function analyzeSkin(
  ctx: { env: Env; site: SiteConfig; agent: AgentConfig; sessionId: string; callId?: string },
  context: string,
): Promise<{ result: unknown; events: SessionEvent[] }> {
  const { env, site, agent, sessionId } = ctx;
  const access = photoAccess(env, site, agent);
  if (!access.ok) throw new ApiError(403, "photos_unavailable", access.reason);
  const photos = await latestPhotos(env, sessionId);
  if (!photos.length) return { result: { error: "The visitor has not sent a photo yet: ask for one." }, events: [] };
  const text = `Visitor's context: ${context || "(none given)"}`;
  const body: UpstreamBody = {
    model: agent.model,
    stream: false,
    max_tokens: 700,
    messages: [
      { role: "system", content: SYSTEM },
      { role: "user", content: [{ type: "text", text }, ...photos.map(photoPart)] },
    ],
    tools: [toOpenAITool(reportSkinFindings)],
    tool_choice: { type: "function", function: { name: reportSkinFindings.name } },
  };
  await resolvePhotoParts(env, site, agent, sessionId, body);
  const targets = modelTargets(site, agent).filter((t, i) => i === 0 || t.caps.vision);
  const reply = await callModel(env, agent, body, undefined, targets);
  const call = reply.kind === "json" ? reply.completion.choices?.[0]?.message?.tool_calls?.[0] : undefined;
  const parsed = call ? parseToolInput(reportSkinFindings, call.function.arguments) : null;
  if (!parsed?.ok)
    throw new ApiError(
      502,
      "tool_failed",
      `The vision model gave no usable findings${parsed ? `: ${parsed.error}` : ""}`,
    );
  const findings = parsed.value;
  const id = ctx.callId || `photo-${photos.join("-").slice(0, 60)}`;
  const advice = findingsCard(findings, photos, id);
  const guard = findings.redFlags.length
    ? guardTurn({
        agent,
        site,
        messages: [{ id: `photo:${id}`, role: "user", content: findings.redFlags.join(". ") }],
        place: {},
        extension: true,
      })
    : null;
  const events = [...(advice ? [adviceEvent(advice)] : []), ...(guard?.events ?? [])];
  // Stored here, by the worker: the browser only folds its copy (it could not append advice itself).
  if (events.length) await sessionRoom(env, sessionId).append(events);
  const recorded = advice ? "It is shown to the visitor as an advice card with the photo." : "";
  return { result: { ...findings, photos: photos.length, note: recorded }, events };
}

const zh = (f: SkinFindings) => /[\u3400-\u9fff]/.test(f.summary);
const NEXT = {
  en: {
    not_needed: "No visit needed for now; see a dermatologist if it changes.",
    routine: "Book a routine visit with a dermatologist.",
    soon: "See a dermatologist within a few days.",
    urgent: "See a doctor today.",
  },
  zh: {
    not_needed: "目前无需就诊；如有变化请看皮肤科医生。",
    routine: "建议预约皮肤科常规门诊。",
    soon: "请在几天内看皮肤科医生。",
    urgent: "请今天就医。",
  },
} as const;

/** The card a visitor keeps: what was seen, what it may be, the next step; the photos are its evidence. */
export function findingsCard(f: SkinFindings, photos: string[], id: string, now = Date.now()): Advice | null {
  const lang = zh(f) ? "zh" : "en";
  const maybe = f.possibleConditions.map((c) => `${c.name} (${c.likelihood})`).join(", ");
  const lines = [
    f.summary,
    maybe && (lang === "zh" ? `可能的情况：${maybe}` : `It may be: ${maybe}.`),
    f.redFlags.length > 0 &&
      (lang === "zh" ? `警示信号：${f.redFlags.join("；")}` : `Warning signs: ${f.redFlags.join("; ")}.`),
    NEXT[lang][f.seeDermatologist],
  ];
  const advice: Advice = {
    id,
    title: lang === "zh" ? "照片所见" : "What your photo shows",
    content: lines.filter(Boolean).join("\n").slice(0, 2000),
    evidence: f.observations.slice(0, 9),
    severity:
      f.redFlags.length || f.seeDermatologist === "urgent" || f.seeDermatologist === "soon" ? "caution" : "info",
    category: lang === "zh" ? "照片评估" : "photo review",
    photos,
    messageId: "",
    at: now,
  };
  // The advice guard's rule holds for this card too (it has evidence and is never `urgent`).
  return adviceProblem(advice) ? null : advice;
}
