import type { AgentConfig } from "../../shared/config/agent-config.ts";
import type { LocalizedText } from "../../shared/config/localized-text.ts";

/** The editor's fields as text, keyed by field. */
export type Form = Record<string, string>;
export type Guards = AgentConfig["guards"];

const pair = (x: LocalizedText) => `${x.en} | ${x["zh-CN"]}`;
const json = (v: unknown) => (v === undefined ? "" : JSON.stringify(v, null, 2));

export function toForm(a: AgentConfig): Form {
  return {
    nameEn: a.name.en,
    nameZh: a.name["zh-CN"],
    descEn: a.description.en,
    descZh: a.description["zh-CN"],
    greetEn: a.greeting.en,
    greetZh: a.greeting["zh-CN"],
    starters: a.starters.map(pair).join("\n"),
    model: a.model,
    strategy: a.strategy,
    maxTokens: String(a.maxTokens),
    maxSteps: String(a.maxSteps),
    tools: a.tools.join(", "),
    system: a.systemPrompt,
    router: json(a.router),
    stages: json(a.stages),
    booking: a.booking ? "on" : "",
  };
}

/** A JSON field's value, or the error at its field (the worker never sees text that is not JSON). */
function parseJson(text: string, path: string, errors: Record<string, string>, notJson: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    errors[path] = notJson.replace("{m}", err instanceof Error ? err.message : String(err));
    return undefined;
  }
}

const num = (v: string) => (v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v);

/**
 * The agent the form describes, on top of the loaded one (fields the form lacks are kept), or the
 * errors of its JSON fields. The worker checks the rest with the AgentConfig schema, live or draft.
 */
export function toAgent(
  base: AgentConfig,
  f: Form,
  guards: Guards,
  notJson: string,
): { agent: unknown } | { errors: Record<string, string> } {
  const local: Record<string, string> = {};
  const router = parseJson(f.router, "router", local, notJson);
  const stages = parseJson(f.stages, "stages", local, notJson);
  if (Object.keys(local).length) return { errors: local };
  const { router: _oldRouter, ...kept } = base;
  return {
    agent: {
      ...kept,
      name: { en: f.nameEn, "zh-CN": f.nameZh },
      description: { en: f.descEn, "zh-CN": f.descZh },
      greeting: { en: f.greetEn, "zh-CN": f.greetZh },
      starters: f.starters
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => {
          const [en, zh = ""] = l.split("|").map((x) => x.trim());
          return { en, "zh-CN": zh || en };
        }),
      model: f.model.trim(),
      strategy: f.strategy,
      maxTokens: num(f.maxTokens),
      maxSteps: num(f.maxSteps),
      tools: f.tools
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
      systemPrompt: f.system,
      ...(router === undefined ? {} : { router }),
      stages: stages ?? [],
      guards,
      booking: f.booking === "on",
    },
  };
}
