import { z } from "zod/mini";

/** Whether this runtime knows `tz` as an IANA time zone (`Europe/Berlin`); the worker and browsers share the list. */
export function knownTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const TimeZone = z
  .string()
  .check(
    z.maxLength(64),
    z.refine(knownTimeZone, { message: "not a time zone: write an IANA name such as Europe/Berlin" }),
  );
