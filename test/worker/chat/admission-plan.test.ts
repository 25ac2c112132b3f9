import { describe, expect, it } from "vitest";
import { admissionPlan, type TurnFacts } from "../../../worker/chat/admission-plan.ts";

const plain: TurnFacts = {
  stream: false,
  stages: false,
  photos: false,
  consent: false,
  takeover: false,
  books: false,
  refusedLately: false,
};
const plan = (facts: Partial<TurnFacts>) => {
  const { where, before, withState, providerEarly } = admissionPlan({ ...plain, ...facts });
  return { where, before, withState, providerEarly };
};

describe("admissionPlan: where a chat turn's session limits are checked, and what waits for them", () => {
  it("a plain streamed turn: the session's object checks them as it starts the reply", () => {
    expect(plan({ stream: true })).toEqual({
      where: "room",
      before: "provider",
      withState: false,
      providerEarly: false,
    });
    expect(plan({ stream: true, takeover: true, books: true, refusedLately: true }).where).toBe("room");
  });

  it("a plain turn not streamed: one call, the provider's request leaving alongside it", () => {
    expect(plan({})).toEqual({ where: "route", before: "provider", withState: false, providerEarly: true });
  });

  it("each reason for the route to admit first, streamed or not, and the step that waits", () => {
    for (const stream of [true, false]) {
      expect(plan({ stream, consent: true })).toMatchObject({ where: "route", before: "guard" });
      expect(plan({ stream, stages: true })).toMatchObject({ where: "route", before: "prompt", withState: true });
      expect(plan({ stream, photos: true })).toMatchObject({ where: "route", before: "photos", withState: false });
      // The earliest step wins when several apply.
      expect(plan({ stream, photos: true, stages: true, consent: true })).toMatchObject({ before: "guard" });
    }
  });

  it("not streamed: the provider waits where a person, a stage, a photo, a booking or a refusal decides", () => {
    for (const facts of [
      { takeover: true },
      { stages: true },
      { photos: true },
      { books: true },
      { refusedLately: true },
    ]) {
      expect(plan(facts).providerEarly, JSON.stringify(facts)).toBe(false);
    }
    // The state comes back with the admission: what staff said, the visits booked in the slots card.
    for (const facts of [{ takeover: true }, { books: true }])
      expect(plan(facts)).toEqual({ where: "route", before: "provider", withState: true, providerEarly: false });
  });

  it("says why in words", () => {
    expect(admissionPlan({ ...plain, consent: true }).why).toMatch(/notice/);
    expect(admissionPlan({ ...plain, stream: true }).why).toMatch(/object/);
  });
});
