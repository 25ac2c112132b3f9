import type { EmergencyCategory } from "../../shared/wire/protocol.ts";

/**
 * One way an emergency is written; `also`, when given, must hold somewhere in the same message;
 * `evenAsked`: it counts even as a general question ("how many pills would it take to not wake up").
 */
export interface EmergencyRule {
  category: EmergencyCategory;
  re: RegExp;
  also?: RegExp;
  evenAsked?: boolean;
}

export const rule = (category: EmergencyCategory, re: RegExp, also?: RegExp, evenAsked = false): EmergencyRule => ({
  category,
  re,
  also,
  evenAsked,
});

/**
 * When a message matches several categories, the one reported: the crisis first, then what a
 * dispatcher would ask about first (a collapse before the breathing it stopped, an allergy before
 * the breathing it causes).
 */
export const CATEGORY_ORDER: readonly EmergencyCategory[] = [
  "self_harm",
  "harm_to_others",
  "collapse",
  "anaphylaxis",
  "poisoning",
  "cardiac",
  "stroke",
  "bleeding",
  "breathing",
];

export const byCategoryOrder = (rules: EmergencyRule[]): EmergencyRule[] =>
  [...rules].sort((a, b) => CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category));
