import type { EmergencyCategory, EmergencySituation } from "../../../shared/wire/protocol.ts";

/**
 * The situations the emergency guard reasons about, each grounded in published triage red flags
 * (the same the model's escalate_emergency tool names), and violence, which only the phrase rules
 * read. A situation's rules say which card a visitor gets through their `category`.
 */
export type Situation = EmergencySituation | "violence";

/**
 * A sign: one clinical concept (a symptom, a modifier such as "spreading fast", a context such as
 * "blood thinners") as visitors write it, in English and Chinese, on normalized text (simplified
 * characters, lower case, common misspellings put right). English forms match as whole words.
 */
export interface Sign {
  name: string;
  re: RegExp;
  /** A context, not a symptom (a new medicine, a baby): it counts in the past and when negated near it. */
  context?: boolean;
  /** A context a visitor can rule out ("not on any blood thinners"): negated just before it, it does not count. */
  negatable?: boolean;
}

export function sign(name: string, en: readonly string[], zh: readonly string[] = [], context = false): Sign {
  const parts: string[] = [];
  if (en.length) parts.push(`(?<![a-z])(?:${en.join("|")})(?![a-z])`);
  if (zh.length) parts.push(`(?:${zh.join("|")})`);
  return { name, re: new RegExp(parts.join("|"), "g"), context };
}

/**
 * Up to n characters between a Chinese body part and what is wrong with it, inside one clause and not
 * across a denial: "嘴唇眼睛都不肿" and "眼睛都不肿,没起泡" rule the sign out.
 */
export const zhGap = (n: number) => `[^，。！？；,.!?;不没无]{0,${n}}`;

/** A context sign: where it holds, not whether it is happening (a baby, a filler, a heater). */
export const context = (name: string, en: readonly string[], zh: readonly string[] = []): Sign =>
  sign(name, en, zh, true);

/** A context that holds in the past too (a medicine taken for years) but not when denied. */
export const negatableContext = (name: string, en: readonly string[], zh: readonly string[] = []): Sign => ({
  ...sign(name, en, zh, true),
  negatable: true,
});

/** Signs that together mean an emergency: each must be present, and live (see situation-guard.ts). */
export interface Combination {
  all: readonly Sign[];
  category: EmergencyCategory;
  /** An ordinary reason for the same signs that, said anywhere in the message, voids the combination. */
  unless?: RegExp;
}

export interface SituationModel {
  id: Situation;
  /** The published red-flag lists the combinations follow. */
  sources: readonly string[];
  combinations: readonly Combination[];
}

export const when = (category: EmergencyCategory, ...all: Sign[]): Combination => ({ all, category });

/** A combination that an ordinary reason explains away: cancelled bookings and a rehomed cat before a move. */
export const unlessSaid = (unless: RegExp, combination: Combination): Combination => ({ ...combination, unless });
