import { z } from "zod/mini";
import { LocalizedText } from "./localized-text.ts";
import { TimeZone } from "./time-zone.ts";

const HHMM = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/));

/** One opening window: on these weekdays (0 Sunday … 6 Saturday), from `from` until `to` (local time). */
export const OpeningWindow = z.object({
  days: z.array(z.int().check(z.gte(0), z.lte(6))).check(z.minLength(1), z.maxLength(7)),
  from: HHMM,
  to: HHMM,
});
export type OpeningWindow = z.infer<typeof OpeningWindow>;

/** When staff answer: windows in the site's IANA time zone (e.g. `Asia/Shanghai`). */
export const OpeningHours = z.object({
  timeZone: TimeZone,
  windows: z.array(OpeningWindow).check(z.minLength(1), z.maxLength(14)),
});
export type OpeningHours = z.infer<typeof OpeningHours>;

export const DEFAULT_UNAVAILABLE: LocalizedText = {
  en: "Nobody from our team is available right now. Leave a way to reach you and we will get back to you.",
  "zh-CN": "目前没有工作人员在线。请留下联系方式，我们会尽快与您联系。",
};

export const DEFAULT_MAX_WAIT_MINUTES = 10;

/**
 * Handing a conversation to a person (takeover). Off by default: a site that enables it gets the
 * visitor's "talk to a person" button and the agent's `ask_for_person` tool; staff answer from the
 * console's Live page. Without `hours` staff are reachable whenever one has the Live page open.
 */
export const TakeoverSettings = z.object({
  enabled: z._default(z.boolean(), false),
  hours: z.optional(OpeningHours),
  /** Shown to the visitor when nobody can come (the contact form follows it). */
  unavailableMessage: z.optional(LocalizedText),
  /** How long a queued visitor waits for a person before being told nobody is coming (minutes). */
  maxWaitMinutes: z._default(z.int().check(z.gte(1), z.lte(240)), DEFAULT_MAX_WAIT_MINUTES),
});
export type TakeoverSettings = z.infer<typeof TakeoverSettings>;

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** Pure: whether `now` falls in one of the windows, read in the hours' time zone. No hours: always open. */
export function withinHours(hours: OpeningHours | undefined, now: number): boolean {
  if (!hours) return true;
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: hours.timeZone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(now));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const day = WEEKDAYS.indexOf(part("weekday"));
  const minute = Number(part("hour")) * 60 + Number(part("minute"));
  const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
  return hours.windows.some((w) => {
    const from = toMinutes(w.from);
    const to = toMinutes(w.to);
    // A window past midnight (22:00-06:00) belongs to the day it starts on.
    if (from <= to) return w.days.includes(day) && minute >= from && minute < to;
    return (w.days.includes(day) && minute >= from) || (w.days.includes((day + 6) % 7) && minute < to);
  });
}
