import { z } from "zod/mini";
import { EVENT_TYPES, PERSON_REQUESTERS, UNAVAILABLE_REASONS } from "../wire/protocol.ts";

/**
 * Takeover's session events. All are written by the worker only: a widget cannot
 * append them (ClientEvent does not list them), so a browser can neither claim a person joined nor
 * hand itself back to the model. The reducer folds them in takeover-state.ts.
 */
const base = { id: z.string().check(z.minLength(1), z.maxLength(120)), at: z.number() };

/** Who from the site's staff: an id (a digest of their console session, not the session) and the name shown. */
export const StaffMember = z.object({
  staffId: z.string().check(z.minLength(1), z.maxLength(64)),
  name: z.string().check(z.minLength(1), z.maxLength(60)),
});
export type StaffMember = z.infer<typeof StaffMember>;

/** The author of a staff message (a stored assistant message): what the visitor sees above it. */
export const MessageAuthor = StaffMember;
export type MessageAuthor = StaffMember;

export const PersonRequestInput = z.object({
  /** What the visitor (or the agent) said they need; shown to staff in the queue. */
  reason: z.optional(z.string().check(z.maxLength(500))),
});
export type PersonRequestInput = z.infer<typeof PersonRequestInput>;

export const PersonRequested = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.personRequested),
  data: z.object({ by: z.enum(PERSON_REQUESTERS), reason: z.optional(z.string().check(z.maxLength(500))) }),
});

export const PersonUnavailable = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.personUnavailable),
  /** `message`: the site's text for the visitor, in the session's language. */
  data: z.object({ reason: z.enum(UNAVAILABLE_REASONS), message: z.string().check(z.maxLength(1000)) }),
});

export const StaffJoined = z.object({ ...base, type: z.literal(EVENT_TYPES.staffJoined), data: StaffMember });
export const StaffHandedBack = z.object({ ...base, type: z.literal(EVENT_TYPES.staffHandedBack), data: StaffMember });

/** A way to reach the visitor later (e-mail, phone, anything they write), when nobody could come. */
export const ContactInput = z.object({
  name: z.optional(z.string().check(z.maxLength(100))),
  contact: z.string().check(z.minLength(3), z.maxLength(200)),
  note: z.optional(z.string().check(z.maxLength(2000))),
});
export type ContactInput = z.infer<typeof ContactInput>;

export const ContactLeft = z.object({ ...base, type: z.literal(EVENT_TYPES.contactLeft), data: ContactInput });

export const TakeoverEvents = [PersonRequested, PersonUnavailable, StaffJoined, StaffHandedBack, ContactLeft] as const;
