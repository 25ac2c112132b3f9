import { z } from "zod/mini";
import { LocalizedText } from "./localized-text.ts";

/** Which safety guards an agent runs; the medical presets turn both on. */
export const AgentGuards = z.object({
  /** Every visitor message is checked for an emergency before the model is called. */
  emergency: z._default(z.boolean(), false),
  /** record_advice needs evidence; `urgent` is kept for emergencies; every card carries the site's disclaimer. */
  advice: z._default(z.boolean(), false),
  /** Each finished reply is run through the site's compliance rules; violations go to the owner's trace. */
  compliance: z._default(z.boolean(), false),
});
export type AgentGuards = z.infer<typeof AgentGuards>;

/** Regions with their own emergency numbers; a visitor's country maps to one of them. */
export const EMERGENCY_REGIONS = ["US", "UK", "CN", "EU"] as const;
export type EmergencyRegion = (typeof EMERGENCY_REGIONS)[number];

export const EmergencyContact = z.object({
  label: LocalizedText,
  number: z.string().check(z.minLength(1), z.maxLength(40)),
  /** `emergency`: ambulance, police; `crisis`: a listening line for suicidal thoughts. */
  kind: z.enum(["emergency", "crisis"]),
});
export type EmergencyContact = z.infer<typeof EmergencyContact>;

/**
 * The optional classifier layer: an OpenAI-compatible moderation route (`/moderations`) or a chat
 * model asked with a guard prompt. It runs only when the rules found nothing, in parallel with the
 * provider's request; when it fails or times out, the rules' verdict stands.
 */
export const GuardClassifier = z.object({
  kind: z.enum(["moderation", "chat"]),
  /** OpenAI-compatible base URL (…/v1); default: the worker's LLM_BASE_URL, with LLM_API_KEY. */
  baseUrl: z.optional(z.string().check(z.regex(/^https?:\/\//))),
  model: z.optional(z.string().check(z.maxLength(200))),
  /**
   * The longest the reply is held for its answer: the visible stream waits for the classifier (or
   * this) before its first byte; the provider's request is not delayed.
   */
  timeoutMs: z._default(z.int().check(z.gte(50), z.lte(5000)), 800),
});
export type GuardClassifier = z.infer<typeof GuardClassifier>;

/** One compliance rule of a tenant: a phrase (case-insensitive, whole words) and what to say instead. */
export const ComplianceRule = z.object({
  phrase: z.string().check(z.minLength(1), z.maxLength(120)),
  rewrite: z.string().check(z.maxLength(200)),
  kind: z._default(z.enum(["claim", "price_promise"]), "claim"),
});
export type ComplianceRule = z.infer<typeof ComplianceRule>;

/** A site's safety settings; everything has a default. */
export const SiteSafety = z.object({
  /** Region used when the visitor's country is unknown or has no entry (default US). */
  defaultRegion: z.optional(z.enum(EMERGENCY_REGIONS)),
  /** Per region, replaces the default numbers (e.g. a clinic's own out-of-hours line first). */
  contacts: z.optional(
    z.partialRecord(z.enum(EMERGENCY_REGIONS), z.array(EmergencyContact).check(z.minLength(1), z.maxLength(6))),
  ),
  /** Shown on every advice card of an agent with the advice guard. */
  disclaimer: z.optional(LocalizedText),
  classifier: z.optional(GuardClassifier),
  /**
   * The agent's model may raise the escalation itself with the escalate_emergency tool (agents with
   * the emergency guard and native or hybrid tool calling). On unless `false`.
   */
  modelEscalation: z.optional(z.boolean()),
  /**
   * The host's signed identity of its signed-in user (a rep): the name of the worker secret the
   * host's backend signs it with (HS256). Without it a session has no rep, and profile_reader refuses.
   */
  identity: z.optional(z.object({ secretName: z.string().check(z.regex(/^[A-Z][A-Z0-9_]{2,63}$/)) })),
  /** Sales compliance: rules added to the defaults (cure, guaranteed, price promises, en and zh). */
  compliance: z.optional(z.object({ rules: z.array(ComplianceRule).check(z.maxLength(200)) })),
});
export type SiteSafety = z.infer<typeof SiteSafety>;

export const DEFAULT_DISCLAIMER: LocalizedText = {
  en: "General information, not a diagnosis. See a doctor for advice about you.",
  "zh-CN": "仅为一般信息，不构成诊断。具体情况请咨询医生。",
};
