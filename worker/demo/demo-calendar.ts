import type { CalendarConnector } from "../booking/calendar-connector.ts";
import { CalendarError } from "../booking/calendar-connector.ts";

const DAY_MS = 86_400_000;
/** The demo clinic's hours, in UTC: visitors see them in their own time zone. */
const OPEN_HOUR = 8;
const CLOSE_HOUR = 16;
const LENGTH_MINUTES = 30;
const endOf = (start: string) => new Date(Date.parse(start) + LENGTH_MINUTES * 60_000).toISOString();

/** Visits booked in this isolate (the demo keeps no calendar beyond it), by start: their uid and key. */
const booked = new Map<string, { uid: string; key: string }>();

/**
 * The demo clinic's calendar: weekdays, every half hour in opening hours, minus what was booked here.
 * It answers as a connector does, so the tools, the card and the conflicts run the same code as Cal.com's.
 */
export const demoCalendar: CalendarConnector = {
  eventType: async () => ({ title: "Dermatology visit", lengthMinutes: LENGTH_MINUTES }),
  async slots(from, to) {
    const out: string[] = [];
    for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += DAY_MS) {
      const weekday = new Date(d).getUTCDay();
      if (weekday === 0 || weekday === 6) continue;
      for (let m = OPEN_HOUR * 60; m < CLOSE_HOUR * 60; m += LENGTH_MINUTES) {
        const start = new Date(d + m * 60_000).toISOString();
        if (!booked.has(start)) out.push(start);
      }
    }
    return out;
  },
  async book(visit) {
    if (booked.has(visit.start)) throw new CalendarError("conflict", "the demo calendar has a visit at that time");
    const uid = `demo-${crypto.randomUUID().slice(0, 12)}`;
    booked.set(visit.start, { uid, key: visit.key });
    return { uid, start: visit.start, end: endOf(visit.start) };
  },
  async cancel(uid) {
    for (const [start, b] of booked) if (b.uid === uid) booked.delete(start);
  },
  async findBooking(visit) {
    const b = booked.get(visit.start);
    return b?.key === visit.key ? { uid: b.uid, start: visit.start, end: endOf(visit.start) } : null;
  },
};
