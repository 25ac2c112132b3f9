import { DEFAULT_MAX_WAIT_MINUTES, type TakeoverSettings } from "../../shared/config/takeover-config.ts";
import { formatHours, parseHours } from "./takeover-hours.ts";

/** The Setup page's takeover section as its fields hold it (pure: tested without a page). */
export interface TakeoverForm {
  enabled: boolean;
  timeZone: string;
  hours: string;
  maxWait: string;
  messageEn: string;
  messageZh: string;
}

export function takeoverForm(s: TakeoverSettings | undefined): TakeoverForm {
  return {
    enabled: s?.enabled ?? false,
    timeZone: s?.hours?.timeZone ?? "",
    hours: s?.hours ? formatHours(s.hours.windows) : "",
    maxWait: String(s?.maxWaitMinutes ?? DEFAULT_MAX_WAIT_MINUTES),
    messageEn: s?.unavailableMessage?.en ?? "",
    messageZh: s?.unavailableMessage?.["zh-CN"] ?? "",
  };
}

/** What the form sends, or the hours' problem (shown at the field; the worker checks the rest). */
export function takeoverBody(f: TakeoverForm): { body: TakeoverSettings } | { error: string } {
  // Not a whole number: sent as is, and the worker's answer names the field.
  const maxWaitMinutes = f.maxWait.trim() ? Number(f.maxWait.trim()) : DEFAULT_MAX_WAIT_MINUTES;
  const body: TakeoverSettings = { enabled: f.enabled, maxWaitMinutes };
  if (f.hours.trim()) {
    const parsed = parseHours(f.hours);
    if ("error" in parsed) return parsed;
    body.hours = { timeZone: f.timeZone.trim(), windows: parsed.windows };
  }
  if (f.messageEn.trim() || f.messageZh.trim()) {
    const en = f.messageEn.trim() || f.messageZh.trim();
    body.unavailableMessage = { en, "zh-CN": f.messageZh.trim() || en };
  }
  return { body };
}
