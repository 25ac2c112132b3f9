import type { EmergencyCategory } from "../../shared/protocol.ts";

/** One way an emergency is written; `also`, when given, must hold somewhere in the same message. */
export interface EmergencyRule {
  category: EmergencyCategory;
  re: RegExp;
  also?: RegExp;
}

export const rule = (category: EmergencyCategory, re: RegExp, also?: RegExp): EmergencyRule => ({ category, re, also });
