import { describe, expect, it } from "vitest";
import { bookingBody, bookingForm } from "../../console/pages/booking-form.ts";
import { SiteBooking } from "../../shared/config/booking-config.ts";

describe("the Booking page's form", () => {
  it("starts with the namespaced secret name and Cal.com's cloud, and sends what the worker reads", () => {
    const empty = bookingForm(null);
    expect(empty).toMatchObject({ apiKeySecret: "CALCOM_API_KEY", baseUrl: "https://api.cal.com", daysAhead: "14" });
    const body = bookingBody({ ...empty, eventTypeId: " 4321 ", timeZone: " Europe/Berlin ", baseUrl: "" });
    expect(SiteBooking.parse(body)).toEqual({
      provider: "calcom",
      eventTypeId: 4321,
      apiKeySecret: "CALCOM_API_KEY",
      timeZone: "Europe/Berlin",
      daysAhead: 14,
      baseUrl: "https://api.cal.com",
    });
  });

  it("round-trips a stored calendar; text that is not a number is left for the worker to refuse", () => {
    const stored = SiteBooking.parse({
      provider: "calcom",
      apiKeySecret: "CALCOM_CLINIC",
      eventTypeId: 7,
      baseUrl: "https://cal.clinic.example",
      daysAhead: 21,
    });
    expect(SiteBooking.parse(bookingBody(bookingForm(stored)))).toEqual(stored);
    const refused = SiteBooking.safeParse(bookingBody({ ...bookingForm(stored), eventTypeId: "seven", daysAhead: "" }));
    expect(refused.error?.issues.map((i) => i.path.join("."))).toEqual(["eventTypeId", "daysAhead"]);
  });
});
