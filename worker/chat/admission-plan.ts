/**
 * The steps of a chat turn, in the order the route takes them, that a refused turn must not reach:
 * the guard (its classifier reads the visitor's words), the prompt (built from the session's state
 * for a stage workflow), the photos (read from storage), the provider.
 */
export const ADMISSION_STEPS = ["guard", "prompt", "photos", "provider"] as const;
export type AdmissionStep = (typeof ADMISSION_STEPS)[number];

/** What decides a turn's admission, read off the request, its agent and its site. */
export interface TurnFacts {
  stream: boolean;
  /** The agent runs a stage workflow. */
  stages: boolean;
  /** A message carries parts (photos). */
  photos: boolean;
  /** The agent asks for a consent notice the session must have agreed to. */
  consent: boolean;
  /** The site hands conversations to its staff (takeover). */
  takeover: boolean;
  /** The agent books visits on the site's calendar: the session's bookings go into its prompt. */
  books: boolean;
  /** This isolate saw the session refused for its limits lately (limits/refusals.ts). */
  refusedLately: boolean;
}

/**
 * Where the session's own limits are checked for a turn (its rate and token budget, the turn's
 * message ids, consent, a person handling the conversation), and which step waits for them.
 * `room`: the session's object checks them as it starts the streamed reply, no call of their own.
 * `route`: one call to the object, started with the turn.
 */
export interface AdmissionPlan {
  where: "room" | "route";
  /** The first step that waits for the admission; the steps before it run alongside it. */
  before: AdmissionStep;
  /**
   * The admission answers the session's state: the stage workflow's prompt, what staff said after a
   * hand back, the visits booked in the slots card.
   */
  withState: boolean;
  /** Not streamed: the provider's request leaves while the object admits the turn; a refusal aborts it. */
  providerEarly: boolean;
  why: string;
}

const route = (facts: TurnFacts, before: AdmissionStep, why: string): AdmissionPlan => ({
  where: "route",
  before,
  withState: facts.stages || facts.takeover || facts.books,
  providerEarly: !(facts.stages || facts.photos || facts.takeover || facts.books || facts.refusedLately),
  why,
});

/** Where a turn is admitted, and why: the first reason that applies decides. */
export function admissionPlan(facts: TurnFacts): AdmissionPlan {
  if (facts.consent) return route(facts, "guard", "the visitor agrees to the notice before anything reads their words");
  if (facts.stages)
    return route(facts, "prompt", "a stage workflow's prompt is built from the state the admission brings");
  if (facts.photos) return route(facts, "photos", "photos are read from storage only for an admitted turn");
  if (facts.stream) {
    const why = "a plain streamed turn: the session's object checks the limits as it starts the reply";
    return { where: "room", before: "provider", withState: false, providerEarly: false, why };
  }
  if (facts.takeover) return route(facts, "provider", "a person may handle the conversation: the model waits");
  if (facts.books)
    return route(facts, "provider", "the session's bookings, which the admission brings, go into the prompt");
  if (facts.refusedLately) return route(facts, "provider", "refused here lately: the provider waits for the admission");
  return route(facts, "provider", "the provider's request leaves while the session's object admits the turn");
}
