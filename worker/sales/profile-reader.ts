import type { ToolInput } from "../../shared/tools/tool.ts";
import type { profileReader } from "../../shared/tools/profile-reader.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";

/**
 * A stored customer profile: `reps` are the ids of the reps who may read it (KV `profile:<site>:<id>`,
 * written by the site's own sync); everything else is the profile the model reads.
 */
interface StoredProfile {
  reps: string[];
  [field: string]: unknown;
}

const profileKey = (siteKey: string, customerId: string) => `profile:${siteKey}:${customerId}`;

async function loadProfile(env: Env, siteKey: string, customerId: string): Promise<StoredProfile | undefined> {
  const stored = await env.CONFIG.get<StoredProfile>(profileKey(siteKey, customerId), "json");
  return stored ?? env.demo?.profile(siteKey, customerId);
}

/**
 * The profile, for the session's signed-in rep only. The rep is the session token's (verified from the
 * host's signed identity at session open): a model or a browser cannot name another one.
 */
export async function readProfile(
  env: Env,
  siteKey: string,
  rep: string | undefined,
  input: ToolInput<typeof profileReader>,
) {
  if (!rep)
    throw new ApiError(
      401,
      "unauthorized",
      "profile_reader needs a signed-in rep: the host passes a signed identity to the widget (its identity option)",
    );
  const profile = await loadProfile(env, siteKey, input.customerId);
  if (!profile) throw new ApiError(404, "not_found", `No customer ${JSON.stringify(input.customerId)}`);
  if (!Array.isArray(profile.reps) || !profile.reps.includes(rep))
    throw new ApiError(403, "forbidden", `Customer ${JSON.stringify(input.customerId)} is not assigned to this rep`);
  const { reps: _, ...visible } = profile;
  return { customerId: input.customerId, ...visible };
}
