import type { GuardClassifier } from "../../shared/config/guard-config.ts";
import { EMERGENCY_CATEGORIES, type EmergencyCategory } from "../../shared/wire/protocol.ts";

export type ClassifierOutcome =
  { ok: true; category: EmergencyCategory | null; ms: number } | { ok: false; reason: string; ms: number };

export interface ClassifierTarget {
  baseUrl: string;
  apiKey?: string;
}

/**
 * Where the site's classifier is reached from this env: its own base URL, else the worker's
 * provider's, with the worker's key. Null: nowhere to ask. Resolved where the classifier runs (the
 * route, or the session's object for a streamed reply), so no key travels with a turn.
 */
export function classifierTarget(
  env: { LLM_BASE_URL?: string; LLM_API_KEY?: string },
  config: GuardClassifier,
): ClassifierTarget | null {
  const baseUrl = config.baseUrl ?? env.LLM_BASE_URL;
  return baseUrl ? { baseUrl, apiKey: env.LLM_API_KEY } : null;
}

/** The chat kind's instruction; the answer is one category name or "none". */
const GUARD_PROMPT = [
  "You are a safety classifier for a health website's chat. Decide whether the visitor's message describes an",
  "emergency happening now (to them or someone with them). Answer with exactly one word from this list:",
  `${EMERGENCY_CATEGORIES.join(", ")}, none.`,
  'History, negations ("no chest pain"), general questions and figures of speech are none.',
].join(" ");

/** OpenAI moderation categories that mean a crisis; violence alone is too broad for a health desk. */
const SELF_HARM = ["self-harm", "self-harm/intent", "self-harm/instructions"];

async function post(target: ClassifierTarget, path: string, body: unknown, signal: AbortSignal): Promise<unknown> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  const res = await fetch(`${target.baseUrl.replace(/\/$/, "")}${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok) throw new Error(`classifier answered HTTP ${res.status}`);
  return res.json();
}

function fromModeration(json: unknown): EmergencyCategory | null {
  const result = (json as { results?: Array<{ categories?: Record<string, boolean> }> }).results?.[0];
  if (!result?.categories) throw new Error("moderation answer without results[0].categories");
  return SELF_HARM.some((k) => result.categories?.[k]) ? "self_harm" : null;
}

function fromChat(json: unknown): EmergencyCategory | null {
  const text = (json as { choices?: Array<{ message?: { content?: string | null } }> }).choices?.[0]?.message?.content;
  if (typeof text !== "string") throw new Error("chat answer without message content");
  const word = text.trim().toLowerCase();
  return EMERGENCY_CATEGORIES.find((c) => word.startsWith(c)) ?? null;
}

/**
 * The optional second layer. Never throws and never waits past `timeoutMs`: a failure or a
 * timeout is an outcome, and the caller keeps the rules' verdict.
 */
export async function classify(
  config: GuardClassifier,
  target: ClassifierTarget,
  message: string,
  model: string,
): Promise<ClassifierOutcome> {
  const started = Date.now();
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), config.timeoutMs);
  try {
    const input = message.slice(0, 4000);
    const category =
      config.kind === "moderation"
        ? fromModeration(
            await post(
              target,
              "/moderations",
              { input, ...(config.model ? { model: config.model } : {}) },
              ctrl.signal,
            ),
          )
        : fromChat(
            await post(
              target,
              "/chat/completions",
              {
                model: config.model ?? model,
                messages: [
                  { role: "system", content: GUARD_PROMPT },
                  { role: "user", content: input },
                ],
                max_tokens: 8,
                temperature: 0,
              },
              ctrl.signal,
            ),
          );
    return { ok: true, category, ms: Date.now() - started };
  } catch (err) {
    const reason = ctrl.signal.aborted
      ? `timed out after ${config.timeoutMs} ms`
      : err instanceof Error
        ? err.message
        : String(err);
    return { ok: false, reason: reason.slice(0, 200), ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}
