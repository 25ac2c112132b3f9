import { env } from "cloudflare:workers";
import { inject } from "vitest";
import type { AgentConfigInput, SiteConfigInput } from "../../../shared/config/agent-config.ts";
import type { ChatMessage } from "../../../shared/chat/chat.ts";
import type { ProviderProfileInput } from "../../../shared/config/provider-config.ts";
import type { SessionState } from "../../../shared/session/session.ts";
import { proxyCompletion, type StepResult } from "../../../widget/agent/completion.ts";
import { runAgentLoop, type LoopResult } from "../../../widget/agent/loop.ts";
import type { FetchLike } from "../../../widget/transport/http.ts";
import { call, openSession } from "./client.ts";
import { putSite } from "./sites.ts";
import type { ProviderStyle } from "../providers/build.ts";
import { sessionRoom } from "../../../worker/objects.ts";

/**
 * Runs a provider fixture through the proxy (the real app in workerd) and the widget's stream
 * handling (its completion client, reading the proxy's response): what a visitor's widget and the
 * session would get from that provider.
 */
/** The profile's key secret, as `wrangler secret put LLM_TEST_KEY` sets it: a binding of the worker tests. */
export const KEY = env.LLM_TEST_KEY!;
const BASE = inject("providerUpstreamUrl");

/** Where the provider fake serves `style`'s fixture for one case (index into CASES, or `loop`). */
export function profileFor(style: ProviderStyle, which: number | "loop", id = style.id): ProviderProfileInput {
  const root = `${BASE}/p/${style.id}/${which}`;
  return { ...style.profile, id, baseUrl: style.profile.auth === "azure" ? root : `${root}/v1` };
}

export async function siteFor(
  style: ProviderStyle,
  which: number | "loop",
  site: Partial<SiteConfigInput> = {},
  agent: Partial<AgentConfigInput> = {},
) {
  const agentId = `conf-${style.id}`.replace(/[^a-z0-9-]/g, "-");
  const config: AgentConfigInput = {
    id: agentId,
    name: { en: "Conformance", "zh-CN": "一致性" },
    description: { en: "", "zh-CN": "" },
    greeting: { en: "Hi", "zh-CN": "你好" },
    systemPrompt: "You help visitors of a skin clinic.",
    model: style.model,
    tools: ["knowledge_search", "web_search"],
    ...agent,
  };
  await env.CONFIG.put(`agent:${agentId}`, JSON.stringify(config));
  const siteKey = await putSite({ agents: [agentId], providers: [profileFor(style, which)], ...site });
  return { siteKey, agentId };
}

export interface TurnResult {
  step?: StepResult;
  /** The answer as the widget showed it last while it streamed. */
  shown: string;
  error?: { name: string; code?: string; status?: number; message: string };
  state: SessionState;
  sessionId: string;
}

/** The widget's completion client, talking to the real app; `settled` waits for what the worker stores afterwards. */
async function widgetClient(siteKey: string, agentId: string) {
  const s = await openSession(agentId, {}, { siteKey });
  const pending: Promise<void>[] = [];
  const fetch: FetchLike = async (url, init) => {
    const { res, done } = await call(new URL(url).pathname + new URL(url).search, init);
    pending.push(done());
    return res;
  };
  const complete = proxyCompletion({
    api: "http://parley.test",
    auth: () => ({ sessionId: s.sessionId, token: s.token }),
    fetch,
  });
  const settled = () => Promise.all(pending).then(() => sessionRoom(env, s.sessionId).getState());
  return { s, complete, settled };
}

/** The widget's agent loop for one visitor message; each tool answers a fixed observation. */
export async function widgetLoop(
  siteKey: string,
  agentId: string,
): Promise<{ result: LoopResult; state: SessionState }> {
  const { complete, settled } = await widgetClient(siteKey, agentId);
  let n = 0;
  const result = await runAgentLoop({
    strategy: "native",
    history: [{ id: "u1", role: "user", content: "I have a red itchy rash after a new soap" }],
    complete,
    execute: async (calls) =>
      calls.map((call) => ({
        call,
        outcome: "ok" as const,
        observation: '{"passages":[]}',
        ms: 1,
        side: "edge" as const,
      })),
    maxSteps: 4,
    newId: () => `step${++n}`,
  });
  return { result, state: await settled() };
}

/** One completion as the widget asks for it, through the proxy; the session's state once it stored the reply. */
export async function widgetTurn(siteKey: string, agentId: string, messages?: ChatMessage[]): Promise<TurnResult> {
  const { s, complete, settled } = await widgetClient(siteKey, agentId);
  const result: Omit<TurnResult, "state"> = { sessionId: s.sessionId, shown: "" };
  const onText = (text: string) => void (result.shown = text);
  try {
    const history: ChatMessage[] = messages ?? [{ id: "u1", role: "user", content: "I have a red itchy rash" }];
    result.step = await complete({ messages: history, replyId: "r1", onText });
  } catch (err) {
    const e = err as Error & { code?: string; status?: number };
    result.error = { name: e.name, code: e.code, status: e.status, message: e.message };
  }
  return { ...result, state: await settled() };
}

export interface SeenRequest {
  path: string;
  auth: string | null;
  apiKey: string | null;
  body: Record<string, unknown> & { messages: Array<Record<string, unknown>> };
}

/** What the provider fake received for one provider (and case), oldest first. */
export async function seenBy(style: ProviderStyle, which: number | "loop"): Promise<SeenRequest[]> {
  const all = (await (await fetch(inject("providerLogUrl"))).json()) as SeenRequest[];
  return all.filter((r) => r.path.startsWith(`/p/${style.id}/${which}/`));
}
