import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import type { PhotoConfig } from "../../shared/config/photo-config.ts";
import type { Env } from "../env.ts";
import { usesDemoModel } from "../llm/upstream.ts";
import { modelTargets } from "../llm/model-targets.ts";

/**
 * Whether an agent takes photos: its config enables them and the model that answers it can see
 * (`vision` in the site's provider profile; the scripted demo model reads the demo's photos).
 * Null with the reason a visitor or owner reads, or the agent's photo settings.
 */
export function photoAccess(
  env: Env,
  site: SiteConfig,
  agent: AgentConfig,
): { ok: true; config: PhotoConfig } | { ok: false; reason: string } {
  if (!agent.photos?.enabled) return { ok: false, reason: `Agent ${agent.id} does not take photos` };
  if (usesDemoModel(env)) return { ok: true, config: agent.photos };
  let vision = false;
  try {
    vision = modelTargets(site, agent)[0].caps.vision;
  } catch {
    vision = false;
  }
  if (!vision)
    return {
      ok: false,
      reason:
        `Agent ${agent.id}'s model ${JSON.stringify(agent.model)} cannot read images: ` +
        `set vision: true for it in the site's provider profile, or turn photos off`,
    };
  return { ok: true, config: agent.photos };
}
