import { describe, expect, it } from "vitest";
import { formatHours, parseHours } from "../../console/pages/takeover-hours.ts";
import { OpeningHours } from "../../shared/config/takeover-config.ts";

describe("opening hours as the Setup page writes them", () => {
  it("reads ranges, lists and several windows, and writes them back the same way", () => {
    const parsed = parseHours("Mon-Fri 09:00-17:30; Sat,Sun 10:00-14:00\nFri 22:00-06:00");
    expect(parsed).toEqual({
      windows: [
        { days: [1, 2, 3, 4, 5], from: "09:00", to: "17:30" },
        { days: [0, 6], from: "10:00", to: "14:00" },
        { days: [5], from: "22:00", to: "06:00" },
      ],
    });
    if ("error" in parsed) throw new Error(parsed.error);
    expect(formatHours(parsed.windows)).toBe("Mon-Fri 09:00-17:30; Sun,Sat 10:00-14:00; Fri 22:00-06:00");
    // What it makes is what the worker accepts.
    expect(OpeningHours.safeParse({ timeZone: "Europe/Berlin", windows: parsed.windows }).success).toBe(true);
  });

  it("wraps a range across the week's end and names what it cannot read", () => {
    expect(parseHours("Sat-Mon 08:00-12:00")).toEqual({ windows: [{ days: [0, 1, 6], from: "08:00", to: "12:00" }] });
    expect(parseHours("Funday 09:00-10:00")).toEqual({ error: expect.stringContaining("days are Sun, Mon") });
    expect(parseHours("Mon 9-17")).toEqual({ error: expect.stringContaining("Mon-Fri 09:00-17:30") });
    expect(parseHours("")).toEqual({ windows: [] });
  });
});
